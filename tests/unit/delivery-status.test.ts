import { describe, expect, it } from "vitest";
import { deliveryPath } from "@server/deliveries/delivery-status";

describe("the delivery state machine (decisions.md)", () => {
  it("walks the main path forward, recording every step passed", () => {
    expect(deliveryPath("pending", "preparing")).toEqual(["preparing"]);
    expect(deliveryPath("scheduled", "in_transit")).toEqual(["shipped", "in_transit"]);
    expect(deliveryPath("in_transit", "delivered")).toEqual(["delivered"]);
  });

  it("never goes back along the path, nor leaves delivered or cancelled", () => {
    expect(deliveryPath("shipped", "preparing")).toBeNull();
    expect(deliveryPath("delivered", "rescheduled")).toBeNull();
    expect(deliveryPath("delivered", "cancelled")).toBeNull();
    expect(deliveryPath("cancelled", "scheduled")).toBeNull();
  });

  it("reschedules from any open state and from failed, and a rescheduled delivery is scheduled again", () => {
    expect(deliveryPath("pending", "rescheduled")).toEqual(["rescheduled"]);
    expect(deliveryPath("in_transit", "rescheduled")).toEqual(["rescheduled"]);
    expect(deliveryPath("failed", "rescheduled")).toEqual(["rescheduled"]);
    expect(deliveryPath("rescheduled", "scheduled")).toEqual(["scheduled"]);
    expect(deliveryPath("rescheduled", "in_transit")).toBeNull();
  });

  it("fails only on the road", () => {
    expect(deliveryPath("in_transit", "failed")).toEqual(["failed"]);
    expect(deliveryPath("shipped", "failed")).toEqual(["failed"]);
    expect(deliveryPath("scheduled", "failed")).toBeNull();
    expect(deliveryPath("failed", "delivered")).toBeNull();
  });

  it("treats the same status as nothing to do", () => {
    expect(deliveryPath("scheduled", "scheduled")).toEqual([]);
  });
});
