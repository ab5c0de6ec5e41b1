import { and, asc, desc, eq, ne } from "drizzle-orm";
import { formatLimaInstant, limaToday } from "@core/lima-dates";
import type { Database } from "../db/client";
import type { DatabaseOrTransaction } from "../db/transaction";
import { deliveries, deliveryProofs, orders } from "../db/schema";
import { isUuid } from "../db/uuid";
import { loadRouteSettings } from "./route-settings";
import { stopOutlook } from "./route-progress";
import { KEPT_STATUSES, loadRouteStops } from "./route-stops";

/**
 * What the customer sees of their delivery's day (issue 26): on the day, how many stops are left
 * before theirs and when the van should ring; after it, who received it and the bidones. Nothing of
 * the other stops (no address, no name) and never where the van is. Plain data, so the WhatsApp "en
 * camino" message can say the same as the pages.
 */
export type DeliveryTracking =
  | { kind: "none" }
  | {
      kind: "on_route";
      /** The route has started (a stop on the road or done) or this stop is on its way. */
      started: boolean;
      stopsBefore: number;
      isNext: boolean;
      /** 'HH:MM' in Lima; null when the route has no times yet. */
      window: { from: string; to: string } | null;
    }
  | { kind: "delivered"; receiverName: string | null; fullBidones: number; emptyBidones: number; at: string }
  | { kind: "failed" };

const ON_ROUTE_STATUSES = ["scheduled", "shipped", "in_transit"];
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
  if (delivery.date !== limaToday(now) || !delivery.driverId || !ON_ROUTE_STATUSES.includes(delivery.status)) return { kind: "none" };
  const settings = await loadRouteSettings(db);
  const stops = await loadRouteStops(db, { date: delivery.date, drivers: [delivery.driverId] });
  const outlook = stopOutlook(stops, deliveryId, now, settings.serviceMinutes);
  if (!outlook) return { kind: "none" };
  return {
    kind: "on_route",
    started: delivery.status !== "scheduled" || stops.some((stop) => KEPT_STATUSES.includes(stop.status)),
    stopsBefore: outlook.stopsBefore,
    isNext: outlook.isNext,
    window: outlook.window ? { from: hhmm(outlook.window.from), to: hhmm(outlook.window.to) } : null,
  };
}

/** The delivery of an order worth tracking today (its delivery of the day), or its latest one delivered today. */
export async function trackedDeliveryOfOrder(db: Database, orderId: string, now: Date): Promise<string | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(and(eq(deliveries.orderId, orderId), eq(deliveries.deliveryDate, limaToday(now)), ne(deliveries.status, "cancelled")))
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
