import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { recordStaffActions, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { deliveries, orderItems, orders, products, productVariants, users } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { amountToCollect, compareStops, dispatchableOrder } from "./dispatch-scope";
import { bidonExchange } from "./returnable-bidones";
import { retimeDriverDay } from "./route-plan";
import { lateMinutes } from "./route-progress";
import { formatLimaInstant } from "@core/lima-dates";

export interface RouteStop {
  id: string;
  deliveryNumber: string;
  status: string;
  districtName: string;
  deliveryWindow: string;
  address: string;
  /** The customer's reference for the address (delivery) and the order's delivery notes, when given. */
  reference: string | null;
  orderNumber: string;
  customerName: string;
  customerPhone: string;
  routePosition: number | null;
  amountToCollectCents: number | null;
  items: { title: string; variantTitle: string | null; quantity: number }[];
  bidones: { full: number; empty: number };
  /** Issue 26: when the van should ring ('HH:MM', Lima), from the route's order; null before it is timed. */
  estimatedArrival: string | null;
  /** Minutes after its window closes that the van would arrive; 0 when on time. */
  lateMinutes: number;
  /** No point of its own: the van is sent to the district's centre ("ubicación aproximada"). */
  approximate: boolean;
  /** Issue 40: the stop's own point, printed for hand-written notes; null when approximate. */
  pin: { lat: number; lng: number } | null;
}

export interface RouteSheet {
  driverId: string;
  driverName: string;
  date: string;
  stops: RouteStop[];
}

/**
 * The printable route sheets of a day: one per driver with stops that day (or only `driverId`'s),
 * stops in route order (compareStops). Two queries whatever the number of stops.
 */
export async function loadRouteSheets(db: Database, input: { date: string; driverId?: string | null }): Promise<RouteSheet[]> {
  const driver = alias(users, "driver");
  const rows = await db
    .select({
      id: deliveries.id,
      orderId: deliveries.orderId,
      deliveryNumber: deliveries.deliveryNumber,
      status: deliveries.status,
      districtName: deliveries.districtName,
      deliveryWindow: deliveries.deliveryWindow,
      address: deliveries.address,
      deliveryNotes: deliveries.notes,
      orderNotes: orders.deliveryNotes,
      orderNumber: orders.orderNumber,
      firstName: orders.customerFirstName,
      lastName: orders.customerLastName,
      customerPhone: orders.customerPhone,
      routePosition: deliveries.routePosition,
      lat: deliveries.lat,
      lng: deliveries.lng,
      estimatedArrivalAt: deliveries.estimatedArrivalAt,
      amountToCollectCents: amountToCollect,
      driverId: driver.id,
      driverFirstName: driver.firstName,
      driverLastName: driver.lastName,
    })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .innerJoin(driver, eq(driver.id, deliveries.assignedDriverId))
    .where(
      and(
        eq(deliveries.deliveryDate, input.date),
        isNotNull(deliveries.assignedDriverId),
        input.driverId ? eq(deliveries.assignedDriverId, input.driverId) : undefined,
        ne(deliveries.status, "cancelled"),
        dispatchableOrder,
      ),
    );
  const orderIds = [...new Set(rows.map((row) => row.orderId))];
  const itemRows = orderIds.length
    ? await db
        .select({
          orderId: orderItems.orderId,
          title: orderItems.title,
          variantTitle: orderItems.variantTitle,
          quantity: orderItems.quantity,
          sku: sql<string | null>`coalesce(${productVariants.sku}, ${products.sku})`,
        })
        .from(orderItems)
        .innerJoin(products, eq(products.id, orderItems.productId))
        .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
        .where(inArray(orderItems.orderId, orderIds))
        .orderBy(asc(orderItems.id))
    : [];
  const itemsByOrder = new Map<string, typeof itemRows>();
  for (const item of itemRows) itemsByOrder.set(item.orderId, [...(itemsByOrder.get(item.orderId) ?? []), item]);

  const sheets = new Map<string, RouteSheet>();
  for (const row of rows) {
    let sheet = sheets.get(row.driverId);
    if (!sheet) {
      sheet = { driverId: row.driverId, driverName: `${row.driverFirstName} ${row.driverLastName}`.trim(), date: input.date, stops: [] };
      sheets.set(row.driverId, sheet);
    }
    const items = itemsByOrder.get(row.orderId) ?? [];
    const bidones = { full: 0, empty: 0 };
    for (const item of items) {
      const exchange = bidonExchange(item.sku, item.quantity);
      bidones.full += exchange.full;
      bidones.empty += exchange.empty;
    }
    const reference = [row.deliveryNotes, row.orderNotes]
      .filter((note, index, all): note is string => Boolean(note) && all.indexOf(note) === index)
      .join(" · ");
    sheet.stops.push({
      id: row.id,
      deliveryNumber: row.deliveryNumber,
      status: row.status,
      districtName: row.districtName,
      deliveryWindow: row.deliveryWindow,
      address: row.address,
      reference: reference || null,
      orderNumber: row.orderNumber,
      customerName: `${row.firstName} ${row.lastName}`.trim(),
      customerPhone: row.customerPhone,
      routePosition: row.routePosition,
      amountToCollectCents: row.amountToCollectCents,
      items: items.map(({ title, variantTitle, quantity }) => ({ title, variantTitle, quantity })),
      bidones,
      estimatedArrival: row.estimatedArrivalAt ? formatLimaInstant(row.estimatedArrivalAt, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }) : null,
      lateMinutes: row.estimatedArrivalAt ? Math.max(0, lateMinutes(input.date, row.deliveryWindow, row.estimatedArrivalAt)) : 0,
      approximate: row.lat === null,
      pin: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
    });
  }
  const list = [...sheets.values()].sort((a, b) => a.driverName.localeCompare(b.driverName, "es") || a.driverId.localeCompare(b.driverId));
  for (const sheet of list) sheet.stops.sort(compareStops);
  return list;
}

export type MoveStopResult = "moved" | "unchanged" | "not_found";

/**
 * Moves one stop up or down its driver's route for the day, swapping it with its neighbour. The
 * form says where the stop was (`fromPosition`, 1-based, as the sheet showed it): when that is no
 * longer true (a repeated click already moved it) nothing changes, so a POST never moves it twice.
 * The driver's day is locked in id order and renumbered 1…n, so stops without a position yet
 * (district, then window order) get theirs the first time staff reorder.
 */
export async function moveRouteStop(
  db: Database,
  actor: StaffActor,
  input: { deliveryId: string; direction: "up" | "down"; fromPosition: number; now: Date },
): Promise<MoveStopResult> {
  const [target] = await db
    .select({ driverId: deliveries.assignedDriverId, date: deliveries.deliveryDate })
    .from(deliveries)
    .where(eq(deliveries.id, input.deliveryId));
  if (!target?.driverId) return "not_found";
  return inTransaction(db, async (tx) => {
    const day = await tx
      .select({
        id: deliveries.id,
        deliveryNumber: deliveries.deliveryNumber,
        districtName: deliveries.districtName,
        deliveryWindow: deliveries.deliveryWindow,
        routePosition: deliveries.routePosition,
        driverId: deliveries.assignedDriverId,
      })
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .where(
        and(eq(deliveries.assignedDriverId, target.driverId!), eq(deliveries.deliveryDate, target.date), ne(deliveries.status, "cancelled"), dispatchableOrder),
      )
      .orderBy(asc(deliveries.id))
      .for("update", { of: deliveries });
    const stops = day.sort(compareStops);
    const index = stops.findIndex((stop) => stop.id === input.deliveryId);
    if (index < 0) return "not_found";
    const neighbour = input.direction === "up" ? index - 1 : index + 1;
    if (index + 1 !== input.fromPosition || neighbour < 0 || neighbour >= stops.length) return "unchanged";
    [stops[index], stops[neighbour]] = [stops[neighbour]!, stops[index]!];
    const entries = [];
    for (const [position, stop] of stops.entries()) {
      if (stop.routePosition === position + 1) continue;
      await tx
        .update(deliveries)
        .set({ routePosition: position + 1, updatedAt: input.now })
        .where(eq(deliveries.id, stop.id));
      if (position === index || position === neighbour) {
        entries.push({
          action: "delivery.move_stop",
          entityType: "delivery",
          entityId: stop.id,
          before: { routePosition: stop.routePosition },
          after: { routePosition: position + 1 },
        });
      }
    }
    await recordStaffActions(tx, actor, entries);
    // Issue 26: the new order has new arrival times, and the sheet flags a window it would miss.
    await retimeDriverDay(tx, { date: target.date, driverId: target.driverId!, now: input.now });
    return "moved";
  });
}
