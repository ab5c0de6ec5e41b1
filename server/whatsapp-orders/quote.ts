import { and, asc, desc, eq, notInArray } from "drizzle-orm";
import { garantiaCharge, garantiaCreditToApply } from "@core/garantia";
import { minimumOrderShortfall, orderSummary } from "@core/pricing";
import { priceCartLines } from "../catalog/index.server";
import { checkoutGarantiaContext } from "../checkout/index.server";
import { listServedDistricts } from "../content/index.server";
import type { Database } from "../db/client";
import { orderItems, orders, type RepeatQuoteLine } from "../db/schema";
import { offeredDeliverySlots } from "../deliveries/index.server";

/** How long a summary may be confirmed (issue 38): after that "Confirmar" answers with a fresh one. */
export const QUOTE_VALID_MS = 2 * 3_600_000;

/** Orders that ended without reaching the customer, or whose money went back: not "lo de siempre". */
const NOT_REPEATED = ["failed", "cancelled", "refunded"];

/** The order "lo de siempre" repeats: the account's latest one-time or subscription order that did not end unpaid, cancelled or refunded. */
export async function lastOrderOf(db: Database, userId: string) {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), notInArray(orders.status, NOT_REPEATED)))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  return order ?? null;
}

export type SourceOrder = NonNullable<Awaited<ReturnType<typeof lastOrderOf>>>;

/** The order a summary repeats, for the name, e-mail and document it carries. */
export async function sourceOrder(db: Database, orderId: string): Promise<SourceOrder | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  return order ?? null;
}

/** What a summary holds (the row of whatsapp_repeat_quotes, without its id, key and state). */
export interface PricedRepeat {
  sourceOrderId: string;
  lines: RepeatQuoteLine[];
  leftOut: string[];
  subtotalCents: number;
  garantiaCents: number;
  creditCents: number;
  totalCents: number;
  payCents: number;
  districtId: number;
  districtName: string;
  address: string;
  lat: number | null;
  lng: number | null;
  deliveryNotes: string | null;
  deliveryDate: string;
  deliveryWindow: string;
}

export type RepeatPricing =
  { ok: true; repeat: PricedRepeat } | { ok: false; reason: "not_served" | "nothing_available" | "minimum" | "no_date"; sourceOrderId: string };

/**
 * "Lo de siempre" priced as the checkout would price it now (decision 0090): the source order's
 * products and quantities at today's catalogue prices as a one-time order (a subscription's
 * discount never: the same pricing as "Repetir pedido"), a product withdrawn since left out with
 * a note, the bidón garantía of bidones the customer does not hold and their garantía credit
 * (decision 0075), to the same address, pin and district, on the first date the checkout offers
 * the district now — in the order's usual window if it has room that day, else the other.
 */
export async function priceRepeat(db: Database, source: SourceOrder, userId: string, now: Date): Promise<RepeatPricing> {
  const refuse = (reason: "not_served" | "nothing_available" | "minimum" | "no_date"): RepeatPricing => ({ ok: false, reason, sourceOrderId: source.id });
  const district = (await listServedDistricts(db)).find((candidate) => candidate.id === source.districtId);
  if (!district) return refuse("not_served");
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, source.id)).orderBy(asc(orderItems.id));
  const priced = await priceCartLines(
    db,
    items.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity })),
  );
  if (priced.lines.length === 0) return refuse("nothing_available");
  if (minimumOrderShortfall(priced.subtotalCents) > 0) return refuse("minimum");
  const leftOut = priced.unavailable.map((line) => {
    const item = items.find((candidate) => candidate.productId === line.productId && candidate.variantId === line.variantId);
    const name = item ? (item.variantTitle ? `${item.title} ${item.variantTitle}` : item.title) : "Un producto";
    return `${name} ya no está disponible: no lo incluimos.`;
  });
  const offered = (await offeredDeliverySlots(db, { now, districts: [{ id: district.id, dayNumbers: district.dayNumbers }] }))[district.id] ?? [];
  const first = offered[0];
  if (!first) return refuse("no_date");
  const usual = first.windows.find((window) => window.window === source.deliveryWindow && window.hasRoom);
  const window = usual ?? first.windows.find((candidate) => candidate.hasRoom)!;

  const summary = orderSummary(priced.subtotalCents, "one-time", "mensual");
  const held = await checkoutGarantiaContext(db, userId);
  const garantia = garantiaCharge(
    priced.lines.map((line) => ({ bidones: line.garantiaBidones, unitCents: line.garantiaUnitCents })),
    held.heldBidones,
  );
  const totalCents = summary.totalCents + garantia.cents;
  const creditCents = held.creditCents > 0 ? garantiaCreditToApply(held.creditCents, totalCents) : 0;
  return {
    ok: true,
    repeat: {
      sourceOrderId: source.id,
      lines: priced.lines.map((line) => ({
        productId: line.productId,
        variantId: line.variantId,
        title: line.title,
        variantTitle: line.variantTitle,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        lineTotalCents: line.lineTotalCents,
      })),
      leftOut,
      subtotalCents: priced.subtotalCents,
      garantiaCents: garantia.cents,
      creditCents,
      totalCents,
      payCents: totalCents - creditCents,
      districtId: district.id,
      districtName: district.name,
      address: source.address,
      lat: source.addressLat,
      lng: source.addressLng,
      deliveryNotes: source.deliveryNotes,
      deliveryDate: first.date,
      deliveryWindow: window.window,
    },
  };
}
