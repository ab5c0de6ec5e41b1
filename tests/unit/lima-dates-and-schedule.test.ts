import { describe, expect, it } from "vitest";
import { deliveryScheduleError } from "@core/delivery-schedule";
import { addDays, formatLimaDate, formatLimaInstant, isIsoDate, isoWeekday, limaToday, nextDeliveryDates } from "@core/lima-dates";
import { limaMinutesOfDay } from "@core/delivery-calendar";

// 2026-11-24 is a Tuesday. 04:30 UTC on the 25th is still 23:30 of the 24th in Lima (UTC-5).
const lateTuesdayInLima = new Date("2026-11-25T04:30:00Z");
const earlyWednesdayInLima = new Date("2026-11-25T05:30:00Z");

describe("Lima calendar", () => {
  it("computes today in Lima whatever the server's clock zone", () => {
    expect(limaToday(lateTuesdayInLima)).toBe("2026-11-24");
    expect(limaToday(earlyWednesdayInLima)).toBe("2026-11-25");
  });

  it("numbers weekdays 1 (lunes) to 7 (domingo)", () => {
    expect(isoWeekday("2026-11-23")).toBe(1);
    expect(isoWeekday("2026-11-29")).toBe(7);
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });

  it("offers the next two dates of the weekday, starting tomorrow in Lima", () => {
    // Tuesday late evening in Lima: Wednesday is tomorrow, so the next Wednesday is offered first.
    expect(nextDeliveryDates(3, lateTuesdayInLima)).toEqual(["2026-11-25", "2026-12-02"]);
    // An hour later it is Wednesday in Lima: Wednesday is today, no longer bookable.
    expect(nextDeliveryDates(3, earlyWednesdayInLima)).toEqual(["2026-12-02", "2026-12-09"]);
    expect(nextDeliveryDates(7, lateTuesdayInLima)).toEqual(["2026-11-29", "2026-12-06"]);
    expect(nextDeliveryDates(8, lateTuesdayInLima)).toEqual([]);
  });

  it("recognises real calendar dates only", () => {
    expect(isIsoDate("2026-02-28")).toBe(true);
    expect(isIsoDate("2026-02-29")).toBe(false);
    expect(isIsoDate("28/02/2026")).toBe(false);
  });

  it("formats with the options asked for each time, though each formatter is built once", () => {
    expect(formatLimaDate("2026-11-24")).toBe("martes, 24 de noviembre");
    expect(formatLimaDate("2026-11-24", { day: "numeric", month: "long", year: "numeric" })).toBe("24 de noviembre de 2026");
    expect(formatLimaDate("2026-11-25")).toBe("miércoles, 25 de noviembre");
    // The same wall-clock options in another zone give another formatter: 04:30 UTC is 23:30 in Lima.
    expect(formatLimaInstant(lateTuesdayInLima, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })).toBe("23:30");
    expect(formatLimaDate("2026-11-25", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })).toBe("00:00");
  });
});

describe("Lima dates written out without Intl (issue 26: a phone's start-up)", () => {
  it("gives Lima's date as Intl does for America/Lima, at every hour around the day's turn and across years", () => {
    const intl = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Lima", year: "numeric", month: "2-digit", day: "2-digit" });
    const clock = new Intl.DateTimeFormat("en-GB", { timeZone: "America/Lima", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const start = Date.UTC(2024, 0, 1);
    for (let hour = 0; hour < 24 * 366 * 3; hour += 7) {
      const instant = new Date(start + hour * 3_600_000 + (hour % 60) * 60_000);
      expect(limaToday(instant), instant.toISOString()).toBe(intl.format(instant));
      const [hours, minutes] = clock.format(instant).split(":").map(Number);
      expect(limaMinutesOfDay(instant), instant.toISOString()).toBe(hours! * 60 + minutes!);
    }
    expect(limaToday(new Date("2026-11-25T04:59:59.999Z"))).toBe("2026-11-24");
    expect(limaToday(new Date("2026-11-25T05:00:00.000Z"))).toBe("2026-11-25");
  });

  it("writes the long date as es-PE's Intl format does, every day of four years", () => {
    const intl = new Intl.DateTimeFormat("es-PE", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
    for (let day = 0; day < 366 * 4; day += 1) {
      const date = addDays("2025-01-01", day);
      const [year, month, dayOfMonth] = date.split("-").map(Number);
      const expected = intl.format(new Date(Date.UTC(year!, month! - 1, dayOfMonth!)));
      expect(formatLimaDate(date), date).toBe(expected);
      expect(formatLimaDate(date, { weekday: "long", day: "numeric", month: "long" }), date).toBe(expected);
    }
  });
});

describe("delivery schedule rules", () => {
  const miraflores = [1, 3, 5];

  it("accepts a served weekday from tomorrow on", () => {
    expect(deliveryScheduleError({ districtDays: miraflores, dayNumber: 3, date: "2026-11-25", now: lateTuesdayInLima })).toBeNull();
  });

  it("refuses a weekday the district is not served on", () => {
    expect(deliveryScheduleError({ districtDays: miraflores, dayNumber: 2, date: "2026-12-01", now: lateTuesdayInLima })).toEqual({
      field: "diaHabil",
      message: "Selecciona un día habilitado",
    });
  });

  it("needs at least one day's notice, counted in Lima", () => {
    expect(deliveryScheduleError({ districtDays: miraflores, dayNumber: 3, date: "2026-11-25", now: earlyWednesdayInLima })).toEqual({
      field: "fecha",
      message: "Requiere mínimo 1 día de anticipación",
    });
  });

  it("refuses a date that is not on the chosen weekday", () => {
    expect(deliveryScheduleError({ districtDays: miraflores, dayNumber: 3, date: "2026-11-26", now: lateTuesdayInLima })).toEqual({
      field: "fecha",
      message: "La fecha no coincide con el día seleccionado (Miércoles)",
    });
  });

  it("refuses a date too far ahead", () => {
    expect(deliveryScheduleError({ districtDays: miraflores, dayNumber: 3, date: "2027-03-03", now: lateTuesdayInLima })?.field).toBe("fecha");
  });
});
