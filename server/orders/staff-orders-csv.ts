import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders } from "../db/schema";
import { orderStatusLabel, orderTypeLabels, paymentMethodLabels } from "@core/order-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { pausedDeliveryCsvCell } from "@core/delivery-labels";
import type { StaffOrderFilters } from "@core/staff-order-filters";
import { newestFirst, staffOrderConditions } from "./staff-order-search";
import { CSV_BOM, csvLine, csvSoles as soles } from "@core/csv";
import { currentDelivery, currentDeliveryLateral } from "./current-delivery";

/** Rows read per query: big enough to be quick, small enough that memory stays flat however many orders match. */
export const CSV_BATCH_SIZE = 1000;

const HEADER = [
  "Pedido",
  "Fecha (Lima)",
  "Estado",
  "Tipo",
  "Nombre",
  "Apellido",
  "E-mail",
  "Teléfono",
  "Tipo de documento",
  "Documento",
  "RUC",
  "Razón social",
  "Distrito",
  "Dirección",
  "Fecha de entrega",
  "Horario",
  "Método de pago",
  "Subtotal (S/)",
  "Descuento (S/)",
  "Envío (S/)",
  "Total (S/)",
];

/** `2026-11-24 10:05` on Lima's clock (UTC−5 all year: Lima keeps no daylight saving). */
function limaDateTime(instant: Date): string {
  return new Date(instant.getTime() - 5 * 3600_000).toISOString().slice(0, 16).replace("T", " ");
}

const columns = {
  id: orders.id,
  /** The keyset cursor as PostgreSQL prints it: microseconds kept, unlike a JavaScript Date. */
  cursor: sql<string>`${orders.createdAt}::text`,
  orderNumber: orders.orderNumber,
  createdAt: orders.createdAt,
  status: orders.status,
  orderType: orders.orderType,
  firstName: orders.customerFirstName,
  lastName: orders.customerLastName,
  email: orders.customerEmail,
  phone: orders.customerPhone,
  documentType: orders.documentType,
  documentNumber: orders.documentNumber,
  ruc: orders.ruc,
  businessName: orders.businessName,
  districtName: orders.districtName,
  address: orders.address,
  deliveryDate: orders.deliveryDate,
  deliveryWindow: orders.deliveryWindow,
  /** Decision 0062: the date and window the delivery has now (no window without a delivery; no date while a pause holds it back), read in the batch's own statement. */
  currentDate: sql<string | null>`current_delivery.delivery_date`,
  currentWindow: sql<string | null>`current_delivery.delivery_window`,
  currentPausedUntil: sql<string | null>`current_delivery.paused_until`,
  paymentMethod: orders.paymentMethod,
  subtotalCents: orders.subtotalCents,
  discountCents: orders.discountCents,
  shippingCents: orders.shippingCents,
  totalCents: orders.totalCents,
};

/**
 * The filtered order list as CSV, produced while it is sent: each pull reads the next
 * CSV_BATCH_SIZE orders after the last one sent (keyset on created_at, id — the order of the
 * list page, served by orders_created_idx), so memory holds one batch whatever the total, and a
 * slow client slows the reads instead of filling the server. Starts with a UTF-8 byte order mark
 * so Excel reads the accents.
 */
export function staffOrdersCsvStream(db: Database, filters: StaffOrderFilters, batchSize = CSV_BATCH_SIZE): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const filtered = staffOrderConditions(filters);
  const order = newestFirst(filters);
  let after: { cursor: string; id: string } | null = null;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`${CSV_BOM}${csvLine(HEADER)}`));
      },
      async pull(controller) {
        if (done) return;
        const keyset = after ? sql`(${orders.createdAt}, ${orders.id}) < (${after.cursor}::timestamptz, ${after.id}::uuid)` : undefined;
        const where = filtered && keyset ? sql`${filtered} and ${keyset}` : (filtered ?? keyset);
        const rows = await readBatch(db, where, order, batchSize);
        if (rows.length > 0) {
          const last = rows[rows.length - 1]!;
          after = { cursor: last.cursor, id: last.id };
          controller.enqueue(encoder.encode(rows.map(csvRow).join("")));
        }
        if (rows.length < batchSize) {
          done = true;
          controller.close();
        }
      },
    },
    // One batch waiting at most: the next is read when the client has taken this one.
    { highWaterMark: 1 },
  );
}

function readBatch(db: Database, where: SQL | undefined, order: SQL[], batchSize: number) {
  return db
    .select(columns)
    .from(orders)
    .leftJoinLateral(currentDeliveryLateral(orders.id), sql`true`)
    .where(where)
    .orderBy(...order)
    .limit(batchSize);
}

function csvRow(r: Awaited<ReturnType<typeof readBatch>>[number]): string {
  // A row always has a window; no window means no lateral row (no delivery, nothing held back).
  const delivery = currentDelivery(r, r.currentWindow === null ? null : { date: r.currentDate, window: r.currentWindow, pausedUntil: r.currentPausedUntil });
  return csvLine([
    r.orderNumber,
    limaDateTime(r.createdAt),
    orderStatusLabel(r.status),
    orderTypeLabels[r.orderType] ?? r.orderType,
    r.firstName,
    r.lastName,
    r.email,
    r.phone,
    r.documentType.toUpperCase(),
    r.documentNumber,
    r.ruc ?? "",
    r.businessName ?? "",
    r.districtName,
    r.address,
    // Decision 0066: no date while the delivery waits for its paused subscription.
    delivery.date ?? pausedDeliveryCsvCell(delivery.pausedUntil),
    deliveryWindowLabel(delivery.deliveryWindow),
    r.paymentMethod ? (paymentMethodLabels[r.paymentMethod] ?? r.paymentMethod) : "",
    soles(r.subtotalCents),
    soles(r.discountCents),
    soles(r.shippingCents),
    soles(r.totalCents),
  ]);
}

/** `pedidos-2026-11-24.csv`: the Lima date of the export. */
export function staffOrdersCsvFilename(today: string): string {
  return `pedidos-${today}.csv`;
}
