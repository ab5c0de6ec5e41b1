import { describe, expect, it } from "vitest";
import { customerDelivery } from "@core/customer-delivery";

describe("a delivery as its customer sees it", () => {
  it("keeps the customer's fields of a delivery row and leaves the staff-only columns behind", () => {
    const seen = {
      id: "9d0c2f8e-7a61-4f53-9b1e-2f4f1c1a7b10",
      deliveryNumber: "ENV-000123",
      status: "in_transit",
      deliveryDate: "2026-12-16",
      deliveryWindow: "manana",
      address: "Av. Larco 100",
      districtName: "Miraflores",
      trackingCode: null,
      notes: "Tocar el timbre",
    };
    const row = { ...seen, assignedDriverId: "driver-1", routePosition: 3, lat: -12.12, lng: -77.03 };
    expect(customerDelivery(row)).toEqual(seen);
    expect(Object.keys(customerDelivery(row))).toEqual(Object.keys(seen));
  });
});
