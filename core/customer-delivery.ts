/**
 * A delivery as its customer sees it, on the tracking page (/dashboard/envios/{id}) and on an
 * invoice (spec §4, §7). The deliveries and invoices domains both read it from a delivery row;
 * copying it field by field keeps staff-only columns (driver, route position, photos) off the
 * customer's pages, whatever the row carries.
 */
export interface CustomerDelivery {
  id: string;
  deliveryNumber: string;
  status: string;
  /** Lima calendar date, `YYYY-MM-DD`. */
  deliveryDate: string;
  deliveryWindow: string;
  address: string;
  districtName: string;
  trackingCode: string | null;
  notes: string | null;
}

export function customerDelivery(row: CustomerDelivery): CustomerDelivery {
  return {
    id: row.id,
    deliveryNumber: row.deliveryNumber,
    status: row.status,
    deliveryDate: row.deliveryDate,
    deliveryWindow: row.deliveryWindow,
    address: row.address,
    districtName: row.districtName,
    trackingCode: row.trackingCode,
    notes: row.notes,
  };
}
