import { describe, expect, it } from "vitest";
import { calendarRefusal, firstBookableDate, limaMinutesOfDay, openDates, parseCutoffTime } from "@core/delivery-calendar";
import { closedDaysLookup } from "@core/peru-holidays";

/** Lima is UTC-5 all year: 17:59 in Lima is 22:59 UTC. */
const lima = (date: string, time: string) => new Date(`${date}T${time}:00-05:00`);
/** Peru's national holidays, no row of staff's. */
const holidays = closedDaysLookup([]);

describe("delivery calendar: the 18:00 cut-off the day before (issue 10)", () => {
  it("reads Lima's clock whatever the process's zone", () => {
    expect(limaMinutesOfDay(new Date("2026-11-24T22:59:00Z"))).toBe(17 * 60 + 59);
    expect(limaMinutesOfDay(new Date("2026-11-25T03:08:00Z"))).toBe(22 * 60 + 8);
  });

  it("offers tomorrow until 17:59 and the day after from 18:00 on", () => {
    expect(firstBookableDate(lima("2026-11-24", "17:59"), "18:00")).toBe("2026-11-25");
    expect(firstBookableDate(lima("2026-11-24", "18:00"), "18:00")).toBe("2026-11-26");
    expect(firstBookableDate(lima("2026-11-24", "22:08"), "18:00")).toBe("2026-11-26");
    // Just after midnight in Lima a new day began: tomorrow is offered again.
    expect(firstBookableDate(lima("2026-11-25", "00:01"), "18:00")).toBe("2026-11-26");
    // A cut-off staff moved to 16:30.
    expect(firstBookableDate(lima("2026-11-24", "16:30"), "16:30")).toBe("2026-11-26");
    expect(firstBookableDate(lima("2026-11-24", "16:29"), "16:30")).toBe("2026-11-25");
  });

  it("refuses tomorrow after the cut-off with its Spanish message, and never a later date for it", () => {
    const at = (time: string, date: string) => calendarRefusal({ date, now: lima("2026-11-24", time), cutoffTime: "18:00", closedDays: holidays });
    expect(at("17:59", "2026-11-25")).toBeNull();
    expect(at("18:00", "2026-11-25")).toBe("Los pedidos para mañana se reciben hasta las 18:00. Elige otra fecha.");
    expect(at("22:08", "2026-11-25")).toBe("Los pedidos para mañana se reciben hasta las 18:00. Elige otra fecha.");
    expect(at("22:08", "2026-11-26")).toBeNull();
  });

  it("accepts only HH:MM cut-offs", () => {
    expect(parseCutoffTime("18:00")).toBe(1080);
    expect(parseCutoffTime("00:00")).toBe(0);
    expect(parseCutoffTime("24:00")).toBeNull();
    expect(parseCutoffTime("6pm")).toBeNull();
    expect(parseCutoffTime("18:0")).toBeNull();
  });
});

describe("delivery calendar: holidays are never offered (issue 10)", () => {
  it("skips 25 December when ordering on the 23rd and the 24th", () => {
    const window = (now: Date) => openDates({ now, cutoffTime: "18:00", closedDays: holidays, lastDate: "2026-12-28" });
    expect(window(lima("2026-12-23", "17:59"))).toEqual(["2026-12-24", "2026-12-26", "2026-12-27", "2026-12-28"]);
    expect(window(lima("2026-12-23", "18:00"))).toEqual(["2026-12-26", "2026-12-27", "2026-12-28"]);
    expect(window(lima("2026-12-24", "10:00"))).toEqual(["2026-12-26", "2026-12-27", "2026-12-28"]);
    expect(calendarRefusal({ date: "2026-12-25", now: lima("2026-12-24", "10:00"), cutoffTime: "18:00", closedDays: holidays })).toBe(
      "No repartimos el viernes, 25 de diciembre (Navidad). Elige otra fecha.",
    );
  });

  it("skips 1 January across the turn of the year", () => {
    const window = (now: Date) => openDates({ now, cutoffTime: "18:00", closedDays: holidays, lastDate: "2027-01-03" });
    expect(window(lima("2026-12-30", "17:59"))).toEqual(["2026-12-31", "2027-01-02", "2027-01-03"]);
    expect(window(lima("2026-12-31", "12:00"))).toEqual(["2027-01-02", "2027-01-03"]);
    expect(window(lima("2026-12-31", "22:08"))).toEqual(["2027-01-02", "2027-01-03"]);
    expect(calendarRefusal({ date: "2027-01-01", now: lima("2026-12-30", "09:00"), cutoffTime: "18:00", closedDays: holidays })).toBe(
      "No repartimos el viernes, 1 de enero (Año Nuevo). Elige otra fecha.",
    );
  });

  it("refuses a shop's own closed day like a holiday, with its name", () => {
    const closed = new Map([["2026-11-26", "Inventario"]]);
    expect(calendarRefusal({ date: "2026-11-26", now: lima("2026-11-24", "09:00"), cutoffTime: "18:00", closedDays: closed })).toBe(
      "No repartimos el jueves, 26 de noviembre (Inventario). Elige otra fecha.",
    );
  });
});
