import { describe, expect, it } from "vitest";
import { addBusinessDays, businessDaysLeft, complaintAnswerDeadline, deadlineCountdown, isBusinessDay } from "@core/business-days";

/** Literal holidays, as the delivery calendar would hold them (the list itself is data). */
const holidays = new Set(["2026-07-23", "2026-07-28", "2026-07-29", "2026-08-06", "2026-12-08", "2026-12-09", "2026-12-25", "2027-01-01"]);
const none = new Set<string>();

describe("business days for the Libro de Reclamaciones (15 business days, from the day after filing)", () => {
  it("skips Saturdays, Sundays and holidays", () => {
    expect(isBusinessDay("2026-11-27", holidays)).toBe(true); // Friday
    expect(isBusinessDay("2026-11-28", holidays)).toBe(false); // Saturday
    expect(isBusinessDay("2026-11-29", holidays)).toBe(false); // Sunday
    expect(isBusinessDay("2026-12-25", holidays)).toBe(false); // Navidad, a Friday
    expect(isBusinessDay("2026-12-25", none)).toBe(true);
  });

  it("never counts the filing day itself", () => {
    expect(addBusinessDays("2026-11-24", 1, holidays)).toBe("2026-11-25");
    expect(addBusinessDays("2026-11-27", 1, holidays)).toBe("2026-11-30");
  });

  it("a sheet filed on a weekend has the same deadline as one filed the Friday before", () => {
    expect(complaintAnswerDeadline("2026-11-27", holidays)).toBe("2026-12-22");
    expect(complaintAnswerDeadline("2026-11-28", holidays)).toBe("2026-12-22");
    expect(complaintAnswerDeadline("2026-11-29", holidays)).toBe("2026-12-22");
  });

  it("around Christmas and New Year: both holidays push the deadline by a day each", () => {
    expect(complaintAnswerDeadline("2026-12-18", holidays)).toBe("2027-01-12");
    expect(complaintAnswerDeadline("2026-12-18", none)).toBe("2027-01-08");
  });

  it("around Fiestas Patrias (23, 28, 29 July) and 6 August", () => {
    expect(complaintAnswerDeadline("2026-07-22", holidays)).toBe("2026-08-18");
    expect(complaintAnswerDeadline("2026-07-22", none)).toBe("2026-08-12");
  });

  it("counts the business days left and says so in Spanish", () => {
    expect(businessDaysLeft("2026-12-17", "2026-12-22", holidays)).toBe(3);
    expect(deadlineCountdown("2026-12-17", "2026-12-22", holidays)).toEqual({ state: "open", daysLeft: 3, label: "Quedan 3 días hábiles" });
    // Friday to the Tuesday after: the weekend does not count.
    expect(deadlineCountdown("2026-12-18", "2026-12-22", holidays).label).toBe("Quedan 2 días hábiles");
    expect(deadlineCountdown("2026-12-21", "2026-12-22", holidays).label).toBe("Queda 1 día hábil");
    expect(deadlineCountdown("2026-12-22", "2026-12-22", holidays)).toEqual({ state: "today", label: "Vence hoy" });
    expect(deadlineCountdown("2026-12-23", "2026-12-22", holidays)).toEqual({ state: "overdue", label: "Vencido" });
    // On the filing day all fifteen are left.
    expect(deadlineCountdown("2026-12-18", complaintAnswerDeadline("2026-12-18", holidays), holidays).label).toBe("Quedan 15 días hábiles");
  });
});
