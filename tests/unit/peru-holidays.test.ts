import { describe, expect, it } from "vitest";
import { complaintAnswerDeadline } from "@core/business-days";
import { calendarRefusal, openDates } from "@core/delivery-calendar";
import { closedDaysLookup, easterSunday, nationalHolidayOn, nationalHolidaysBetween, nationalHolidaysOf } from "@core/peru-holidays";

/** Lima is UTC-5 all year. */
const lima = (date: string, time: string) => new Date(`${date}T${time}:00-05:00`);

describe("Peru's national holidays of every year (issue 23, decision 0070)", () => {
  it("finds Easter Sunday by the Gregorian computus, including its earliest and latest dates", () => {
    expect(easterSunday(2026)).toBe("2026-04-05");
    expect(easterSunday(2027)).toBe("2027-03-28");
    expect(easterSunday(2030)).toBe("2030-04-21");
    expect(easterSunday(2038)).toBe("2038-04-25"); // the latest possible
    expect(easterSunday(2285)).toBe("2285-03-22"); // the earliest possible
    expect(easterSunday(2000)).toBe("2000-04-23");
    expect(easterSunday(2100)).toBe("2100-03-28");
  });

  it("puts Jueves and Viernes Santo on the Thursday and Friday before Easter", () => {
    const holyWeek = (year: number) => nationalHolidaysOf(year).filter((holiday) => holiday.name.endsWith("Santo"));
    expect(holyWeek(2026)).toEqual([
      { date: "2026-04-02", name: "Jueves Santo" },
      { date: "2026-04-03", name: "Viernes Santo" },
    ]);
    expect(holyWeek(2027)).toEqual([
      { date: "2027-03-25", name: "Jueves Santo" },
      { date: "2027-03-26", name: "Viernes Santo" },
    ]);
    expect(holyWeek(2030)).toEqual([
      { date: "2030-04-18", name: "Jueves Santo" },
      { date: "2030-04-19", name: "Viernes Santo" },
    ]);
  });

  it("has every fixed-date holiday of the reference list in any year, in date order", () => {
    for (const year of [2026, 2028, 2029, 2041, 2100]) {
      const dates = nationalHolidaysOf(year).map((holiday) => holiday.date.slice(5));
      expect(dates).toEqual([...dates].sort());
      expect(dates).toHaveLength(16);
      for (const monthDay of ["01-01", "05-01", "06-07", "06-29", "07-23", "07-28", "07-29", "08-06", "08-30", "10-08", "11-01", "12-08", "12-09", "12-25"]) {
        expect(dates, `${year}-${monthDay}`).toContain(monthDay);
      }
    }
    expect(nationalHolidayOn("2029-01-01")).toBe("Año Nuevo");
    expect(nationalHolidayOn("2031-07-28")).toBe("Fiestas Patrias");
    expect(nationalHolidayOn("2031-07-30")).toBeNull();
  });

  it("lists the holidays between two dates across the turn of a year", () => {
    expect(nationalHolidaysBetween("2028-12-20", "2029-01-05")).toEqual([
      { date: "2028-12-25", name: "Navidad" },
      { date: "2029-01-01", name: "Año Nuevo" },
    ]);
  });

  it("never offers a holiday of a year nobody typed in, and names it when refusing it", () => {
    const closed = closedDaysLookup([]);
    expect(openDates({ now: lima("2028-12-30", "10:00"), cutoffTime: "18:00", closedDays: closed, lastDate: "2029-01-03" })).toEqual([
      "2028-12-31",
      "2029-01-02",
      "2029-01-03",
    ]);
    expect(calendarRefusal({ date: "2032-03-25", now: lima("2032-03-01", "10:00"), cutoffTime: "18:00", closedDays: closed })).toBe(
      "No repartimos el jueves, 25 de marzo (Jueves Santo). Elige otra fecha.",
    );
  });

  it("lets staff's rows decide their dates: a closure, a holiday added by law, a national holiday opened", () => {
    const closed = closedDaysLookup([
      { date: "2029-02-14", kind: "cierre", name: "Inventario" },
      { date: "2029-03-05", kind: "feriado", name: "Feriado por ley" },
      { date: "2029-07-23", kind: "abierto", name: "Día de la Fuerza Aérea del Perú" },
    ]);
    expect(closed.get("2029-02-14")).toBe("Inventario");
    expect(closed.get("2029-03-05")).toBe("Feriado por ley");
    expect(closed.has("2029-07-23")).toBe(false);
    expect(closed.get("2029-07-28")).toBe("Fiestas Patrias");

    // Legal deadlines count holidays only: the shop's closure is a business day, the law's holiday is not.
    const holidays = closedDaysLookup(
      [
        { date: "2029-02-14", kind: "cierre", name: "Inventario" },
        { date: "2029-02-15", kind: "feriado", name: "Feriado por ley" },
      ],
      { holidaysOnly: true },
    );
    expect(holidays.has("2029-02-14")).toBe(false);
    expect(holidays.has("2029-02-15")).toBe(true);
    // Filed Friday 9 Feb 2029: 15 business days, one of them the law's holiday.
    expect(complaintAnswerDeadline("2029-02-09", holidays)).toBe("2029-03-05");
  });
});
