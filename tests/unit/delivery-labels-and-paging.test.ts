import { describe, expect, it } from "vitest";
import { deliveryDayLabel, deliveryStatusLabel, parseDeliveryFilter } from "@core/delivery-labels";
import { pageWindow, parsePageParam } from "~/lib/pagination";

describe("delivery labels", () => {
  it("names every delivery status as the spec does, and an unknown one 'Desconocido'", () => {
    expect(
      ["pending", "preparing", "scheduled", "shipped", "in_transit", "delivered", "failed", "cancelled", "rescheduled", "lost"].map(deliveryStatusLabel),
    ).toEqual(["Pendiente", "Preparando", "Programado", "Enviado", "En camino", "Entregado", "No entregado", "Cancelado", "Reprogramado", "Desconocido"]);
  });

  it("says 'Hoy' and 'Mañana' for upcoming deliveries of today and tomorrow, the date otherwise", () => {
    const today = "2026-12-31";
    expect(deliveryDayLabel({ deliveryDate: "2026-12-31", status: "scheduled" }, today)).toBe("Hoy");
    expect(deliveryDayLabel({ deliveryDate: "2027-01-01", status: "pending" }, today)).toBe("Mañana");
    expect(deliveryDayLabel({ deliveryDate: "2027-01-02", status: "scheduled" }, today)).toBe("sábado, 2 de enero de 2027");
    // A delivery that is no longer on its way keeps its date.
    expect(deliveryDayLabel({ deliveryDate: "2026-12-31", status: "delivered" }, today)).toBe("jueves, 31 de diciembre de 2026");
    expect(deliveryDayLabel({ deliveryDate: "2027-01-01", status: "cancelled" }, today)).toBe("viernes, 1 de enero de 2027");
  });

  it("reads the tab from ?filter=, upcoming when missing or unknown", () => {
    expect(["upcoming", "in_transit", "delivered", "all"].map(parseDeliveryFilter)).toEqual(["upcoming", "in_transit", "delivered", "all"]);
    expect([null, "", "DELIVERED", "pending"].map(parseDeliveryFilter)).toEqual(["upcoming", "upcoming", "upcoming", "upcoming"]);
  });
});

describe("paging", () => {
  it("reads ?page= as a whole number from 1, anything else as page 1", () => {
    expect(["2", "10", null, "", "0", "-1", "1.5", "abc", "9999999"].map(parsePageParam)).toEqual([2, 10, 1, 1, 1, 1, 1, 1, 1]);
  });

  it("tells which rows a page shows and which page is the last", () => {
    expect(pageWindow(1, 10, 14)).toEqual({ from: 1, to: 10, lastPage: 2 });
    expect(pageWindow(2, 10, 14)).toEqual({ from: 11, to: 14, lastPage: 2 });
    expect(pageWindow(1, 10, 10)).toEqual({ from: 1, to: 10, lastPage: 1 });
    expect(pageWindow(1, 10, 0)).toEqual({ from: 0, to: 0, lastPage: 1 });
  });
});
