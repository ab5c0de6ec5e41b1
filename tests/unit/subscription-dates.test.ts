import { describe, expect, it } from "vitest";
import { isoWeekday } from "@core/lima-dates";
import { addMonthsClamped, billingDateOfPeriod, nextMonthlyDeliveryDate } from "@core/subscription-dates";

describe("subscription calendar", () => {
  it("adds months keeping the day, or the month's last day when it has none", () => {
    expect(addMonthsClamped("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonthsClamped("2028-01-31", 1)).toBe("2028-02-29");
    expect(addMonthsClamped("2026-11-30", 3)).toBe("2027-02-28");
    expect(addMonthsClamped("2026-12-15", 1)).toBe("2027-01-15");
  });

  it("bills each period from the start date, never drifting after a short month", () => {
    expect([1, 2, 3, 4].map((period) => billingDateOfPeriod("2026-01-31", "mensual", period))).toEqual([
      "2026-01-31",
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
    ]);
    expect(billingDateOfPeriod("2026-03-10", "anual", 2)).toBe("2027-03-10");
  });

  it("delivers on the same weekday a month later", () => {
    // Wednesday 25 November 2026 → the first Wednesday on or after 25 December: 30 December.
    expect(nextMonthlyDeliveryDate("2026-11-25", [1, 3, 5])).toBe("2026-12-30");
    expect(isoWeekday(nextMonthlyDeliveryDate("2026-12-30", [1, 3, 5]))).toBe(3);
    expect(nextMonthlyDeliveryDate("2026-12-30", [1, 3, 5])).toBe("2027-02-03");
  });

  it("moves to a served weekday when the district no longer serves the old one", () => {
    // Wednesday, but the district now delivers on Tuesdays and Thursdays only.
    const next = nextMonthlyDeliveryDate("2026-11-25", [2, 4]);
    expect(next).toBe("2026-12-31");
    expect(isoWeekday(next)).toBe(4);
  });
});
