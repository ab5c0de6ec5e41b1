import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { ArrivalEstimate } from "@core/arrival-estimate";
import { limaToday } from "@core/lima-dates";
import type { Database } from "../db/client";
import { districtsToJoin } from "../content/index.server";
import { deliveries, deliveryProofs, orders, payments, users } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { listOrderLines, type OrderLine } from "../orders/index.server";
import { arrivalView, driverDayArrivals } from "./arrival-estimates";
import { bidonBalances } from "./bidon-ledger";
import { compareStops } from "./dispatch-scope";

/** Methods paid at the door with a code the driver can collect (spec: "monto a cobrar"). */
const COLLECTABLE_METHODS = ["cash", "yape"];
const UNPAID_ORDER_STATUSES = ["pending", "payment_created"];

export interface DriverStop {
  id: string;
  deliveryNumber: string;
  orderId: string;
  orderNumber: string;
  status: string;
  deliveryWindow: string;
  routePosition: number | null;
  address: string;
  districtName: string;
  /** The customer's reference for the address (checkout's "Referencia"). */
  reference: string | null;
  orderNotes: string | null;
  /** Staff's notes for the whole district (/admin/distritos): gate hours, parking, access. */
  districtNotes: string | null;
  recipientName: string;
  phone: string;
  items: OrderLine[];
  /** Céntimos the driver collects at the door; 0 when the order is already paid. */
  amountToCollectCents: number;
  /** Issue 38: how a contra-entrega customer said they would pay (null for a code, or a paid order). */
  collectMethod: "cash" | "yape" | null;
  /** The note a cash customer pays with, so the driver brings change. */
  paysWithCents: number | null;
  /** Full bidones the customer holds before this stop: the empties the driver can expect back. */
  bidonBalance: number;
  /**
   * Issue 40: when the driver is expected here ('HH:MM', Lima), from the one arrival estimate the
   * customer's tracking reads too (the plan moved by the route's delay, never before now); null
   * before the route is timed and once the stop is done.
   */
  estimatedArrival: string | null;
  /** The same estimate as the customer's window, and whether the promised slot will be missed. */
  arrival: { from: string; to: string; late: string | null } | null;
  /** What the driver recorded, once the stop is done. */
  proof: {
    outcome: string;
    receiverName: string | null;
    fullBidonesLeft: number | null;
    emptyBidonesCollected: number | null;
    failureReason: string | null;
    note: string | null;
  } | null;
}

/**
 * Today's stops (Lima date) of one driver, in route order: the position dispatch gave them, then
 * district and window for stops not placed yet. Cancelled deliveries are off the route; delivered
 * and failed ones stay, so the driver sees the day's progress.
 */
export async function listDriverStops(db: Database, driverId: string, now: Date): Promise<DriverStop[]> {
  const rows = await db
    .select({ delivery: deliveries, order: orders, accountEmail: users.email, districtNotes: districtsToJoin.staffNotes })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(districtsToJoin, eq(districtsToJoin.id, deliveries.districtId))
    .where(and(eq(deliveries.assignedDriverId, driverId), eq(deliveries.deliveryDate, limaToday(now)), ne(deliveries.status, "cancelled")))
    .orderBy(
      sql`${deliveries.routePosition} asc nulls last`,
      asc(deliveries.districtName),
      sql`case ${deliveries.deliveryWindow} when 'manana' then 0 when 'tarde' then 1 else 2 end`,
      asc(deliveries.deliveryNumber),
    );
  if (rows.length === 0) return [];
  const orderIds = [...new Set(rows.map((row) => row.order.id))];
  // Four reads that do not depend on each other: on PostgreSQL they go out on separate connections at once.
  const [lines, collectable, proofs, balances, day] = await Promise.all([
    listOrderLines(db, orderIds),
    db
      .select({
        orderId: payments.orderId,
        amountCents: payments.amountCents,
        provider: payments.provider,
        method: payments.method,
        paysWithCents: payments.paysWithCents,
      })
      .from(payments)
      .where(and(inArray(payments.orderId, orderIds), inArray(payments.method, COLLECTABLE_METHODS), eq(payments.status, "pending"))),
    latestProofs(
      db,
      rows.map((row) => row.delivery.id),
    ),
    bidonBalances(
      db,
      rows.map(({ order, accountEmail }) => ({ userId: order.userId, email: accountEmail ?? order.customerEmail })),
    ),
    driverDayArrivals(db, { date: limaToday(now), driverId, now }),
  ]);
  const toCollect = new Map(collectable.map((row) => [row.orderId, row]));
  return rows.map(({ delivery, order, districtNotes }, index) => ({
    ...arrivalOf(day.estimates.get(delivery.id)),
    id: delivery.id,
    deliveryNumber: delivery.deliveryNumber,
    orderId: order.id,
    orderNumber: order.orderNumber,
    status: delivery.status,
    deliveryWindow: delivery.deliveryWindow,
    routePosition: delivery.routePosition,
    address: delivery.address,
    districtName: delivery.districtName,
    reference: delivery.notes,
    orderNotes: order.deliveryNotes,
    districtNotes: districtNotes ?? null,
    recipientName: `${order.customerFirstName} ${order.customerLastName}`,
    phone: order.customerPhone,
    items: lines.get(order.id) ?? [],
    // The payment's amount: the total less any garantía credit the order spent.
    amountToCollectCents: UNPAID_ORDER_STATUSES.includes(order.status) ? (toCollect.get(order.id)?.amountCents ?? 0) : 0,
    ...doorPaymentOf(UNPAID_ORDER_STATUSES.includes(order.status) ? toCollect.get(order.id) : undefined),
    bidonBalance: balances[index]!.balance,
    proof: proofs.get(delivery.id) ?? null,
  }));
}

function arrivalOf(estimate: ArrivalEstimate | undefined): Pick<DriverStop, "estimatedArrival" | "arrival"> {
  const view = estimate ? arrivalView(estimate) : null;
  return {
    estimatedArrival: view?.expected ?? null,
    arrival: view?.window ? { ...view.window, late: view.late?.label ?? null } : null,
  };
}

function doorPaymentOf(payment: { provider: string; method: string | null; paysWithCents: number | null } | undefined) {
  if (!payment || payment.provider !== "contra_entrega") return { collectMethod: null, paysWithCents: null };
  return { collectMethod: payment.method === "yape" ? ("yape" as const) : ("cash" as const), paysWithCents: payment.paysWithCents };
}

async function latestProofs(db: Database, deliveryIds: string[]): Promise<Map<string, DriverStop["proof"] & object>> {
  const rows = await db.select().from(deliveryProofs).where(inArray(deliveryProofs.deliveryId, deliveryIds)).orderBy(asc(deliveryProofs.createdAt));
  // Later attempts overwrite earlier ones: a delivery that failed and came back shows its last outcome.
  return new Map(
    rows.map((row) => [
      row.deliveryId,
      {
        outcome: row.outcome,
        receiverName: row.receiverName,
        fullBidonesLeft: row.fullBidonesLeft,
        emptyBidonesCollected: row.emptyBidonesCollected,
        failureReason: row.failureReason,
        note: row.note,
      },
    ]),
  );
}

/** Stops that are over for the day: the driver no longer goes there. */
const FINISHED_STOP_STATUSES = new Set(["delivered", "failed", "cancelled"]);

/**
 * How many stops the driver still makes before this one (issue 25, "faltan N paradas"): the
 * stops of the same driver and day ahead of it in route order (compareStops, the order the
 * driver's phone and the route sheet show) that are not done yet. Null when the delivery is on no
 * driver's route.
 */
export async function stopsBeforeOnRoute(
  db: DatabaseOrTransaction,
  delivery: { id: string; assignedDriverId: string | null; deliveryDate: string },
): Promise<number | null> {
  if (!delivery.assignedDriverId) return null;
  const route = await db
    .select({
      id: deliveries.id,
      status: deliveries.status,
      routePosition: deliveries.routePosition,
      districtName: deliveries.districtName,
      deliveryWindow: deliveries.deliveryWindow,
      deliveryNumber: deliveries.deliveryNumber,
    })
    .from(deliveries)
    .where(
      and(eq(deliveries.assignedDriverId, delivery.assignedDriverId), eq(deliveries.deliveryDate, delivery.deliveryDate), ne(deliveries.status, "cancelled")),
    );
  const ordered = route.sort(compareStops);
  const position = ordered.findIndex((stop) => stop.id === delivery.id);
  if (position < 0) return null;
  return ordered.slice(0, position).filter((stop) => !FINISHED_STOP_STATUSES.has(stop.status)).length;
}
