import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { capacityForDay, type DayCapacity } from "./capacity";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "../db/client";
import { deliveries, orderItems, orders, products, productVariants, users } from "../db/schema";
import { amountToCollect, compareStops, dispatchableOrder, TO_LOAD_STATUSES, windowRank } from "./dispatch-scope";
import { bidonExchange } from "./returnable-bidones";

/** One row of the day view; its district and window are its group's (kept out of each row, the page carries 2 000 of them). */
export interface DispatchDelivery {
  id: string;
  deliveryNumber: string;
  status: string;
  address: string;
  orderNumber: string;
  customerName: string;
  customerPhone: string;
  driverName: string | null;
  amountToCollectCents: number | null;
}

export interface DispatchGroup {
  districtId: number;
  districtName: string;
  deliveryWindow: string;
  deliveries: DispatchDelivery[];
  /** The district's own places for this window that day; null when it shares the shop-wide pool (DispatchDay.pool). */
  capacity: number | null;
}

export interface LoadLine {
  productId: number;
  variantId: number | null;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  units: number;
}

export interface DispatchDriver {
  id: string;
  name: string;
  /** The driver's stops this day (not cancelled). */
  stops: number;
}

export interface DispatchDay {
  date: string;
  groups: DispatchGroup[];
  total: number;
  statusCounts: { status: string; count: number }[];
  /** Units of each product and variant across the day's deliveries still to go out (TO_LOAD_STATUSES). */
  load: LoadLine[];
  bidones: { full: number; empty: number };
  /** Active repartidores, with how many stops each already has that day. */
  drivers: DispatchDriver[];
  /** The shop-wide places per window (capacity null: no limit) and those taken by districts without their own figure. */
  pool: DayCapacity["shop"];
  /** The closed day's name when nobody delivers that date. */
  closedName: string | null;
}

/** One delivery of the day as the aggregate query returns it (see loadDispatchDay). */
type DayRow = [
  id: string,
  deliveryNumber: string,
  status: string,
  districtId: number,
  districtName: string,
  deliveryWindow: string,
  address: string,
  orderNumber: string,
  customerName: string,
  customerPhone: string,
  driverId: string | null,
  driverName: string | null,
  routePosition: number | null,
  amountToCollectCents: number | string | null,
];

/**
 * Everything Despacho shows for one Lima date, in a fixed handful of set-based queries (no query
 * per delivery): the deliveries with order, customer and driver; the units to load; the drivers.
 */
export async function loadDispatchDay(db: Database, date: string): Promise<DispatchDay> {
  const driver = alias(users, "driver");
  const [[aggregated], loadRows, driverRows, capacity] = await Promise.all([
    // One json_agg row rather than 2 000 rows of 14 columns: the drivers parse one JSON text
    // natively, where decoding each field of each row costs more than the query (bench/despacho.ts).
    db
      .select({
        rows: sql<
          DayRow[]
        >`coalesce(json_agg(json_build_array(${deliveries.id}, ${deliveries.deliveryNumber}, ${deliveries.status}, ${deliveries.districtId}, ${deliveries.districtName}, ${deliveries.deliveryWindow}, ${deliveries.address}, ${orders.orderNumber}, ${orders.customerFirstName} || ' ' || ${orders.customerLastName}, ${orders.customerPhone}, ${deliveries.assignedDriverId}, ${driver.firstName} || ' ' || ${driver.lastName}, ${deliveries.routePosition}, ${amountToCollect})), '[]'::json)`,
      })
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .leftJoin(driver, eq(driver.id, deliveries.assignedDriverId))
      .where(and(eq(deliveries.deliveryDate, date), ne(deliveries.status, "cancelled"), dispatchableOrder)),
    db
      .select({
        productId: orderItems.productId,
        variantId: orderItems.variantId,
        title: products.title,
        variantTitle: productVariants.title,
        sku: sql<string | null>`coalesce(${productVariants.sku}, ${products.sku})`,
        units: sql<number>`sum(${orderItems.quantity})`.mapWith(Number),
      })
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .innerJoin(orderItems, eq(orderItems.orderId, deliveries.orderId))
      .innerJoin(products, eq(products.id, orderItems.productId))
      .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
      .where(and(eq(deliveries.deliveryDate, date), inArray(deliveries.status, [...TO_LOAD_STATUSES]), dispatchableOrder))
      .groupBy(
        orderItems.productId,
        orderItems.variantId,
        products.title,
        productVariants.title,
        productVariants.sku,
        products.sku,
        products.sortOrder,
        productVariants.id,
      )
      .orderBy(asc(products.sortOrder), asc(products.title), asc(productVariants.id)),
    listActiveDrivers(db),
    capacityForDay(db, date),
  ]);
  const ownCapacity = new Map(capacity.districts.map((row) => [`${row.districtId}:${row.window}`, row.ownCapacity]));

  const groups = new Map<string, DispatchGroup>();
  const statusCounts = new Map<string, number>();
  const stopsByDriver = new Map<string, number>();
  const rows = (aggregated?.rows ?? []).map(
    ([
      id,
      deliveryNumber,
      status,
      districtId,
      districtName,
      deliveryWindow,
      address,
      orderNumber,
      customerName,
      customerPhone,
      driverId,
      driverName,
      routePosition,
      amountToCollectCents,
    ]) => ({
      id,
      deliveryNumber,
      status,
      districtId,
      districtName,
      deliveryWindow,
      address,
      orderNumber,
      customerName,
      customerPhone,
      driverId,
      driverName,
      routePosition,
      amountToCollectCents: amountToCollectCents === null ? null : Number(amountToCollectCents),
    }),
  );
  for (const row of rows.sort(compareStops)) {
    const key = `${row.districtId}:${row.deliveryWindow}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        districtId: row.districtId,
        districtName: row.districtName,
        deliveryWindow: row.deliveryWindow,
        deliveries: [],
        capacity: ownCapacity.get(key) ?? null,
      };
      groups.set(key, group);
    }
    group.deliveries.push({
      id: row.id,
      deliveryNumber: row.deliveryNumber,
      status: row.status,
      address: row.address,
      orderNumber: row.orderNumber,
      customerName: row.customerName,
      customerPhone: row.customerPhone,
      driverName: row.driverName,
      amountToCollectCents: row.amountToCollectCents,
    });
    statusCounts.set(row.status, (statusCounts.get(row.status) ?? 0) + 1);
    if (row.driverId) stopsByDriver.set(row.driverId, (stopsByDriver.get(row.driverId) ?? 0) + 1);
  }
  const sortedGroups = [...groups.values()].sort(
    (a, b) => a.districtName.localeCompare(b.districtName, "es") || windowRank(a.deliveryWindow) - windowRank(b.deliveryWindow),
  );

  const bidones = { full: 0, empty: 0 };
  for (const line of loadRows) {
    const exchange = bidonExchange(line.sku, line.units);
    bidones.full += exchange.full;
    bidones.empty += exchange.empty;
  }

  return {
    date,
    groups: sortedGroups,
    total: rows.length,
    statusCounts: [...statusCounts].map(([status, count]) => ({ status, count })),
    load: loadRows,
    bidones,
    drivers: driverRows.map((row) => ({ ...row, stops: stopsByDriver.get(row.id) ?? 0 })),
    pool: capacity.shop,
    closedName: capacity.closedName,
  };
}

/** Active users with the repartidor role, by name: who a delivery can be assigned to. */
export async function listActiveDrivers(db: Database): Promise<{ id: string; name: string }[]> {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.role, "repartidor"), eq(users.status, "active")))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  return rows.map((row) => ({ id: row.id, name: `${row.firstName} ${row.lastName}`.trim() }));
}
