import { and, asc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { deliveries, orderItems, orders, products, productVariants } from "../db/schema";
import { dispatchableOrder, TO_LOAD_STATUSES } from "./dispatch-scope";

export interface DayLoadLine {
  date: string;
  productId: number;
  variantId: number | null;
  title: string;
  variantTitle: string | null;
  units: number;
}

/**
 * Units of each product and variant per day across the deliveries already created between two
 * dates (inclusive), counted as Despacho's day view counts its load (dispatch-day.ts): one SQL
 * aggregate, never the rows.
 */
export async function loadUnitsBetween(db: Database, from: string, to: string): Promise<DayLoadLine[]> {
  return db
    .select({
      date: deliveries.deliveryDate,
      productId: orderItems.productId,
      variantId: orderItems.variantId,
      title: products.title,
      variantTitle: productVariants.title,
      units: sql<number>`sum(${orderItems.quantity})`.mapWith(Number),
    })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .innerJoin(orderItems, eq(orderItems.orderId, deliveries.orderId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
    .where(and(gte(deliveries.deliveryDate, from), lte(deliveries.deliveryDate, to), inArray(deliveries.status, [...TO_LOAD_STATUSES]), dispatchableOrder))
    .groupBy(deliveries.deliveryDate, orderItems.productId, orderItems.variantId, products.title, productVariants.title)
    .orderBy(asc(deliveries.deliveryDate), asc(orderItems.productId), asc(orderItems.variantId));
}
