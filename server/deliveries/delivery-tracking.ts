import { and, asc, desc, eq, inArray, lte, ne, or } from "drizzle-orm";
import { formatLimaInstant, limaToday } from "@core/lima-dates";
import type { Database } from "../db/client";
import type { DatabaseOrTransaction } from "../db/transaction";
import { deliveries, deliveryProofs, orders, users } from "../db/schema";
import { isUuid } from "../db/uuid";
import { lateReasonLabels } from "@core/arrival-estimate";
import { arrivalView, driverDayArrivals, offRouteArrival } from "./arrival-estimates";
import { KEPT_STATUSES } from "./route-stops";

/**
 * What the customer sees of their delivery's day (issue 26): on the day, how many stops are left
 * before theirs and when the van should ring; after it, who received it and the bidones. Nothing of
 * the other stops (no address, no name) and never where the van is. Plain data, so the WhatsApp "en
 * camino" message can say the same as the pages. Issue 40: the window is the one arrival estimate
 * the driver's card shows too (`driverDayArrivals`); a stop that will miss its slot says so and why;
 * the driver is named by first name only.
 */
export type DeliveryTracking =
  | { kind: "none" }
  | {
      kind: "on_route";
      /** The route has started (a stop on the road or done) or this stop is on its way. */
      started: boolean;
      /** Null for a delivery on its way but on no route of the day (set «en camino» by staff). */
      stopsBefore: number | null;
      isNext: boolean;
      /** 'HH:MM' in Lima; null when the route has no times yet. */
      window: { from: string; to: string } | null;
      /** The slot promised at checkout will be missed: why, in plain Spanish ("Con retraso"). */
      delayed: { reason: string } | null;
      /** The driver's first name; never their position. */
      driverFirstName: string | null;
    }
  | { kind: "delivered"; receiverName: string | null; fullBidones: number; emptyBidones: number; at: string }
  | { kind: "failed" };

const ON_ROUTE_STATUSES = ["scheduled", "shipped", "in_transit"];
/** Out of the warehouse: tracked whatever the route knows (issue 40: "En camino" showed nothing). */
const ON_THE_WAY_STATUSES = ["shipped", "in_transit"];
const hhmm = (instant: Date) => formatLimaInstant(instant, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** One delivery's tracking at `now`; the caller has checked the customer may see it. */
export async function deliveryTracking(db: DatabaseOrTransaction, deliveryId: string, now: Date): Promise<DeliveryTracking> {
  if (!isUuid(deliveryId)) return { kind: "none" };
  const [delivery] = await db
    .select({
      id: deliveries.id,
      status: deliveries.status,
      date: deliveries.deliveryDate,
      driverId: deliveries.assignedDriverId,
      window: deliveries.deliveryWindow,
    })
    .from(deliveries)
    .where(eq(deliveries.id, deliveryId));
  if (!delivery) return { kind: "none" };
  if (delivery.status === "delivered") {
    const [proof] = await db
      .select()
      .from(deliveryProofs)
      .where(and(eq(deliveryProofs.deliveryId, deliveryId), eq(deliveryProofs.outcome, "delivered")))
      .orderBy(desc(deliveryProofs.createdAt))
      .limit(1);
    return {
      kind: "delivered",
      receiverName: proof?.receiverName ?? null,
      fullBidones: proof?.fullBidonesLeft ?? 0,
      emptyBidones: proof?.emptyBidonesCollected ?? 0,
      at: hhmm(proof?.createdAt ?? now),
    };
  }
  if (delivery.status === "failed") return { kind: "failed" };
  const today = limaToday(now);
  const onTheWay = ON_THE_WAY_STATUSES.includes(delivery.status) && delivery.date <= today;
  if (!onTheWay && (delivery.date !== today || !ON_ROUTE_STATUSES.includes(delivery.status))) return { kind: "none" };
  const [driver] = delivery.driverId ? await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, delivery.driverId)) : [];
  const driverFirstName = driver ? (driver.firstName.trim().split(/\s+/)[0] ?? null) : null;
  const { stops, estimates } = delivery.driverId
    ? await driverDayArrivals(db, { date: delivery.date, driverId: delivery.driverId, now })
    : { stops: [], estimates: new Map<string, never>() };
  const estimate = estimates.get(deliveryId);
  if (!estimate) {
    if (!onTheWay) return { kind: "none" };
    const late = offRouteArrival({ id: deliveryId, status: delivery.status, deliveryWindow: delivery.window }, delivery.date, now).late;
    return {
      kind: "on_route",
      started: true,
      stopsBefore: null,
      isNext: false,
      window: null,
      delayed: late ? { reason: lateReasonLabels[late.reason] } : null,
      driverFirstName,
    };
  }
  const view = arrivalView(estimate);
  return {
    kind: "on_route",
    started: onTheWay || stops.some((stop) => KEPT_STATUSES.includes(stop.status)),
    stopsBefore: view.stopsBefore,
    isNext: view.isNext,
    window: view.window,
    delayed: view.late ? { reason: view.late.label } : null,
    driverFirstName,
  };
}

/** The delivery of an order worth tracking today (its delivery of the day), or its latest one delivered today. */
export async function trackedDeliveryOfOrder(db: Database, orderId: string, now: Date): Promise<string | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.orderId, orderId),
        ne(deliveries.status, "cancelled"),
        or(eq(deliveries.deliveryDate, limaToday(now)), and(inArray(deliveries.status, ON_THE_WAY_STATUSES), lte(deliveries.deliveryDate, limaToday(now)))),
      ),
    )
    .orderBy(asc(deliveries.deliveryNumber))
    .limit(1);
  return row?.id ?? null;
}

/** The order and account a delivery belongs to: what the tracking endpoint checks the visitor against. */
export async function deliveryOwner(db: Database, deliveryId: string): Promise<{ orderId: string; userId: string | null } | null> {
  if (!isUuid(deliveryId)) return null;
  const [row] = await db
    .select({ orderId: orders.id, userId: orders.userId })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .where(eq(deliveries.id, deliveryId));
  return row ?? null;
}
