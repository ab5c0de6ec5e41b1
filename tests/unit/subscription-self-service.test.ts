import { describe, expect, it } from "vitest";
import { availableActions, canDo, cancelReasonLabel, linesFromQuantityFields, pauseDateRange, quantityFieldName } from "@core/subscription-self-service";

describe("self-service rules of a subscription", () => {
  it("offers every change to an active subscription and only resuming-related ones while paused", () => {
    expect(availableActions({ status: "active", endsOn: null })).toEqual([
      "skip",
      "date",
      "pause",
      "products",
      "frequency",
      "cadence",
      "organization",
      "card",
      "billing",
      "cancel",
    ]);
    expect(availableActions({ status: "paused", endsOn: null })).toEqual([
      "resume",
      "pause",
      "products",
      "frequency",
      "cadence",
      "organization",
      "card",
      "billing",
      "cancel",
    ]);
    expect(canDo({ status: "paused", endsOn: null }, "skip")).toBe(false);
    expect(canDo({ status: "paused", endsOn: null }, "date")).toBe(false);
  });

  it("leaves only undoing, the organisation and the card while a cancellation waits for its date", () => {
    expect(availableActions({ status: "active", endsOn: "2027-01-23" })).toEqual(["undo-cancel", "organization", "card"]);
    expect(availableActions({ status: "paused", endsOn: "2027-01-23" })).toEqual(["undo-cancel", "organization", "card"]);
  });

  it("asks a past-due subscription for a card first, and allows nothing on a cancelled or unpaid one", () => {
    expect(availableActions({ status: "past_due", endsOn: null })).toEqual(["card", "organization", "cancel"]);
    expect(availableActions({ status: "cancelled", endsOn: "2027-01-23" })).toEqual([]);
    expect(availableActions({ status: "pending_payment", endsOn: null })).toEqual([]);
  });

  it("lets a pause end from tomorrow to six months ahead, counted in Lima", () => {
    // 23:30 on 31 December in Lima is already 1 January in UTC.
    expect(pauseDateRange(new Date("2027-01-01T04:30:00Z"))).toEqual({ min: "2027-01-01", max: "2027-06-30" });
    expect(pauseDateRange(new Date("2026-08-31T15:00:00Z"))).toEqual({ min: "2026-09-01", max: "2027-02-28" });
  });

  it("reads the products form's quantities, leaving out zeros and flagging what is not a quantity", () => {
    const fields: [string, string][] = [
      [quantityFieldName(1, 2), "3"],
      [quantityFieldName(6, null), "0"],
      [quantityFieldName(3, 7), ""],
      ["intent", "products"],
    ];
    expect(linesFromQuantityFields(fields)).toEqual({ lines: [{ productId: 1, variantId: 2, quantity: 3 }], invalid: false });
    expect(linesFromQuantityFields([[quantityFieldName(6, null), "1.5"]]).invalid).toBe(true);
    expect(linesFromQuantityFields([[quantityFieldName(6, null), "100"]]).invalid).toBe(true);
    expect(linesFromQuantityFields([[quantityFieldName(6, null), "-1"]]).invalid).toBe(true);
  });

  it("names each cancellation reason, and none for an unknown one", () => {
    expect(cancelReasonLabel("mudanza")).toBe("Me mudo fuera de la zona de reparto");
    expect(cancelReasonLabel("cualquiera")).toBeNull();
  });
});
