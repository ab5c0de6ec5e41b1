import { describe, expect, it } from "vitest";
import { monthAnchorAt, monthDeliveryDates, nextCadenceDelivery } from "@core/cadence-dates";
import { cadenceOf, monthlySubtotalCents, type DeliveryCadence } from "@core/delivery-cadence";
import { addDays, isoWeekday } from "@core/lima-dates";
import { nationalHolidayOn } from "@core/peru-holidays";
import { orderSummary } from "@core/pricing";
import { deliveriesPerPeriod, nextMonthlyDeliveryDate } from "@core/subscription-dates";
import { checkoutSchema, fieldErrors } from "@core/checkout-schema";
import { saleLines } from "@server/invoices/comprobante-document";
import { checkoutInput } from "../support/checkout-fixture";

const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];

/** The deliveries a subscription gets from its first one, as the scheduler makes them one after the other. */
function schedule(cadence: DeliveryCadence, first: string, count: number, districtDays = ALL_DAYS): string[] {
  const dates = [first];
  let anchor: string | null = first;
  for (let index = 0; dates.length < count; index += 1) {
    const next = nextCadenceDelivery({ cadence, date: dates[dates.length - 1]!, indexInPeriod: index, anchor, districtDays });
    dates.push(next.date);
    anchor = next.anchor;
  }
  return dates;
}

const gaps = (dates: string[]) => dates.slice(1).map((date, index) => (Date.parse(date) - Date.parse(dates[index]!)) / 86_400_000);

describe("a period's delivery dates by cadence (decision 0097)", () => {
  it("gives a weekly month four deliveries on the weekday on or after its anchor, a week apart", () => {
    // 2027-01-06 is a Wednesday; the customer's weekday is Monday.
    expect(monthDeliveryDates("2027-01-06", 1, "weekly")).toEqual(["2027-01-11", "2027-01-18", "2027-01-25", "2027-02-01"]);
    expect(monthDeliveryDates("2027-01-06", 1, "biweekly")).toEqual(["2027-01-11", "2027-01-25"]);
    expect(monthDeliveryDates("2027-01-06", 1, "monthly")).toEqual(["2027-01-11"]);
  });

  it("leaves a month's fifth weekday without a delivery instead of drifting ahead of the month", () => {
    // Mondays from 4 January 2027: January has 4, 11, 18, 25; 1 February is a fifth week.
    const dates = schedule("weekly", "2027-01-04", 8);
    expect(dates).toEqual(["2027-01-04", "2027-01-11", "2027-01-18", "2027-01-25", "2027-02-08", "2027-02-15", "2027-02-22", "2027-03-01"]);
    expect(dates).not.toContain("2027-02-01");
  });

  it("keeps a year of weekly deliveries to 48, each month starting within a week of the same day", () => {
    const dates = schedule("weekly", "2027-01-04", 49);
    // The 49th delivery (the next year's first) comes a year later, not 48 weeks later.
    expect(dates[48]).toBe("2028-01-10");
    expect(new Set(gaps(dates))).toEqual(new Set([7, 14]));
    for (let month = 0; month < 12; month += 1) {
      const first = dates[month * 4]!;
      const sameDay = `2027-${String(month + 1).padStart(2, "0")}-04`;
      expect(first >= sameDay && first <= addDays(sameDay, 6), `month ${month + 1} starts on ${first}`).toBe(true);
    }
    expect(dates.every((date) => isoWeekday(date) === 1)).toBe(true);
  });

  it("gives every two weeks two deliveries a month, 14 days apart within it", () => {
    const dates = schedule("biweekly", "2027-03-03", 7);
    expect(dates).toEqual(["2027-03-03", "2027-03-17", "2027-04-07", "2027-04-21", "2027-05-05", "2027-05-19", "2027-06-09"]);
  });

  it("counts a month from the 31st as from the month's last day", () => {
    // Sunday 31 January 2027: February counts from the 28th, March from the 28th.
    const dates = schedule("weekly", "2027-01-31", 9);
    expect(dates.slice(4)).toEqual(["2027-02-28", "2027-03-07", "2027-03-14", "2027-03-21", "2027-03-28"]);
  });

  it("keeps counting from the wanted date when a holiday falls on it (the slot claim moves that one delivery)", () => {
    // Wednesday 28 July 2027 is Fiestas Patrias; the weeks after keep their Wednesdays.
    expect(nationalHolidayOn("2027-07-28")).not.toBeNull();
    const dates = schedule("weekly", "2027-07-07", 5);
    expect(dates).toEqual(["2027-07-07", "2027-07-14", "2027-07-21", "2027-07-28", "2027-08-11"]);
  });

  it("moves to the district's next served weekday when the customer's is no longer served", () => {
    // Monday no longer served; Tuesday and Thursday are.
    expect(nextCadenceDelivery({ cadence: "weekly", date: "2027-01-04", indexInPeriod: 0, anchor: "2027-01-04", districtDays: [2, 4] }).date).toBe(
      "2027-01-12",
    );
  });

  it("catches a stale anchor up by months, never starting a month within a week of the last delivery", () => {
    // The anchor is from January, the last delivery (the month's fourth) in May after a pause.
    const next = nextCadenceDelivery({ cadence: "weekly", date: "2027-05-24", indexInPeriod: 3, anchor: "2027-01-04", districtDays: ALL_DAYS });
    expect(next).toEqual({ date: "2027-06-07", anchor: "2027-06-04" });
  });

  it("places an annual plan's deliveries by their place in the period: the fifth of 48 starts a new month", () => {
    const afterFourth = nextCadenceDelivery({ cadence: "weekly", date: "2027-01-25", indexInPeriod: 3, anchor: "2027-01-04", districtDays: ALL_DAYS });
    const afterFifth = nextCadenceDelivery({ cadence: "weekly", date: "2027-02-08", indexInPeriod: 4, anchor: "2027-02-04", districtDays: ALL_DAYS });
    expect(afterFourth.date).toBe("2027-02-08");
    expect(afterFifth).toEqual({ date: "2027-02-15", anchor: "2027-02-04" });
  });

  it("re-anchors a month on a new date at its place in the month: the month's first starts the count, a third counts back two weeks", () => {
    expect(monthAnchorAt({ cadence: "weekly", date: "2027-01-11", indexInPeriod: 4 })).toBe("2027-01-11");
    expect(monthAnchorAt({ cadence: "weekly", date: "2027-01-11", indexInPeriod: 2 })).toBe("2026-12-28");
    expect(monthAnchorAt({ cadence: "biweekly", date: "2027-01-11", indexInPeriod: 1 })).toBe("2026-12-28");
    expect(monthAnchorAt({ cadence: "monthly", date: "2027-01-11", indexInPeriod: 0 })).toBeNull();
    // From a third delivery on a new date: its fourth a week later, then the month after the re-anchored one.
    const anchor = monthAnchorAt({ cadence: "weekly", date: "2027-01-11", indexInPeriod: 2 });
    const fourth = nextCadenceDelivery({ cadence: "weekly", date: "2027-01-11", indexInPeriod: 2, anchor, districtDays: ALL_DAYS });
    expect(fourth).toEqual({ date: "2027-01-18", anchor: "2026-12-28" });
    expect(nextCadenceDelivery({ cadence: "weekly", date: fourth.date, indexInPeriod: 3, anchor, districtDays: ALL_DAYS })).toEqual({
      date: "2027-02-01",
      anchor: "2027-01-28",
    });
  });

  it("leaves the monthly cadence on decision 0023's rule, keeping no anchor", () => {
    expect(nextCadenceDelivery({ cadence: "monthly", date: "2027-01-04", indexInPeriod: 0, anchor: null, districtDays: [1, 3, 5] })).toEqual({
      date: nextMonthlyDeliveryDate("2027-01-04", [1, 3, 5]),
      anchor: null,
    });
  });
});

describe("the price of a period by cadence (decision 0097)", () => {
  it("prices one delivery's products times the period's deliveries, then the plan's discount", () => {
    // S/ 66 a delivery, weekly: S/ 264 a month, 5% off on mensual; twelve months at 85% on anual.
    expect(monthlySubtotalCents(6600, "weekly")).toBe(26400);
    expect(orderSummary(monthlySubtotalCents(6600, "weekly"), "subscription", "mensual")).toMatchObject({ subtotalCents: 26400, totalCents: 25080 });
    expect(orderSummary(monthlySubtotalCents(6600, "biweekly"), "subscription", "anual")).toMatchObject({ subtotalCents: 158400, totalCents: 134640 });
    expect(orderSummary(monthlySubtotalCents(6600, "monthly"), "subscription", "mensual").totalCents).toBe(6270);
  });

  it("counts the deliveries a billing period pays for", () => {
    expect(deliveriesPerPeriod("mensual", "weekly")).toBe(4);
    expect(deliveriesPerPeriod("anual", "weekly")).toBe(48);
    expect(deliveriesPerPeriod("anual", "biweekly")).toBe(24);
    expect(deliveriesPerPeriod("anual")).toBe(12);
    expect(deliveriesPerPeriod("mensual")).toBe(1);
  });

  it("reads a missing or unknown stored cadence as monthly", () => {
    expect(cadenceOf(null)).toBe("monthly");
    expect(cadenceOf("fortnightly")).toBe("monthly");
    expect(cadenceOf("weekly")).toBe("weekly");
  });
});

describe("the cadence at checkout and on the comprobante (decision 0097)", () => {
  it("takes a cadence the shop offers, monthly when none is sent, and refuses any other in Spanish", () => {
    const input = checkoutInput(new Date(), { purchaseType: "subscription" });
    expect(input.deliveryCadence).toBe("monthly");
    expect(checkoutSchema.parse({ ...input, deliveryCadence: "weekly" }).deliveryCadence).toBe("weekly");
    const refused = checkoutSchema.safeParse({ ...input, deliveryCadence: "daily" });
    expect(refused.success).toBe(false);
    expect(fieldErrors(refused.error!).deliveryCadence).toBe("Elige cada cuánto quieres tus entregas");
  });

  it("bills a weekly month as four deliveries of the cart on the comprobante, an annual monthly one as twelve months", () => {
    const items = [{ title: "Agua alcalina personal 625 ml", variantTitle: "Pack x 12", sku: "AP-12", quantity: 2, lineTotalCents: 6000 }];
    const weekly = orderSummary(monthlySubtotalCents(6000, "weekly"), "subscription", "mensual");
    const [line] = saleLines({ ...weekly, shippingCents: 0, deliveryCadence: "weekly", items });
    expect(line).toMatchObject({ description: "Agua alcalina personal 625 ml - Pack x 12 (4 entregas)", quantity: 8, totalCents: 22800 });
    const annual = orderSummary(6000, "subscription", "anual");
    expect(saleLines({ ...annual, shippingCents: 0, deliveryCadence: "monthly", items })[0]).toMatchObject({
      description: "Agua alcalina personal 625 ml - Pack x 12 (12 meses)",
      quantity: 24,
    });
  });
});
