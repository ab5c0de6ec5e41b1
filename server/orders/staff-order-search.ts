import { and, count, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders } from "../db/schema";
import { addDays } from "@core/lima-dates";
import type { StaffOrderFilters } from "@core/staff-order-filters";

export const STAFF_ORDERS_PAGE_SIZE = 25;

export interface StaffOrderRow {
  id: string;
  orderNumber: string;
  /** ISO instant; pages show it in Lima time. */
  createdAt: string;
  status: string;
  orderType: string;
  customerName: string;
  customerEmail: string;
  districtName: string;
  paymentMethod: string | null;
  totalCents: number;
}

/** Lima has no daylight saving: its midnight is always 05:00 UTC. */
export function limaMidnight(date: string): Date {
  return new Date(`${date}T05:00:00.000Z`);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The "Buscar" box. Each field is matched the way an index can answer with 100 000 orders (the
 * indexes of migration 0012): order number exactly ("1234", "VA-001234"), e-mail and names by
 * their beginning, phone by its digits (with or without Peru's +51), document or RUC exactly.
 * A name matches when it has every word typed, or when each word begins its first or last name.
 */
export function staffOrderSearchCondition(query: string): SQL {
  const lower = query.toLowerCase();
  const arms: SQL[] = [];
  const number = /^(?:va-?)?(\d{1,9})$/i.exec(query);
  if (number) arms.push(eq(orders.orderNumber, `VA-${number[1]!.padStart(6, "0")}`));
  if (!/\s/.test(lower)) arms.push(sql`lower(${orders.customerEmail}) like ${`${escapeLike(lower)}%`}`);
  const digits = query.replace(/\D/g, "");
  if (digits.length >= 6 && /^[\d\s+().-]+$/.test(query)) {
    const local = digits.startsWith("51") && digits.length === 11 ? digits.slice(2) : digits;
    arms.push(sql`regexp_replace(${orders.customerPhone}, '[^0-9]', '', 'g') in (${local}, ${`51${local}`})`);
  }
  arms.push(eq(orders.documentNumber, query.toUpperCase()), eq(orders.ruc, query));
  const words = lower.split(/\s+/).filter(Boolean);
  if (!lower.includes("@")) {
    // Whole words of the full name, in any order ("maría quispe", "huamán"): the GIN index.
    const wordList = sql.join(
      words.map((word) => sql`${word}`),
      sql`, `,
    );
    arms.push(sql`string_to_array(lower(${orders.customerFirstName} || ' ' || ${orders.customerLastName}), ' ') @> array[${wordList}]::text[]`);
    // Or, while typing: each word begins the first or the last name ("ana qui"): the btree prefix indexes.
    const prefixes = words.map((word) => {
      const prefix = `${escapeLike(word)}%`;
      return or(sql`lower(${orders.customerFirstName}) like ${prefix}`, sql`lower(${orders.customerLastName}) like ${prefix}`)!;
    });
    arms.push(prefixes.length === 1 ? prefixes[0]! : and(...prefixes)!);
  }
  return or(...arms)!;
}

export function staffOrderConditions(filters: StaffOrderFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.q) conditions.push(staffOrderSearchCondition(filters.q));
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.from) conditions.push(gte(orders.createdAt, limaMidnight(filters.from)));
  if (filters.to) conditions.push(lt(orders.createdAt, limaMidnight(addDays(filters.to, 1))));
  if (filters.districtId) conditions.push(eq(orders.districtId, filters.districtId));
  if (filters.paymentMethod) conditions.push(eq(orders.paymentMethod, filters.paymentMethod));
  if (filters.orderType) conditions.push(eq(orders.orderType, filters.orderType));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * Newest first. With a search the matches are few, but the planner cannot tell (it guesses the
 * name-words arm at 0.5% of the table), so it walks orders_created_idx filtering every row: a
 * second with 100 000 orders on PostgreSQL. Ordering by an expression that index does not serve
 * makes it collect the matches from the search indexes first, then sort those few.
 */
export function newestFirst(filters: StaffOrderFilters): SQL[] {
  const createdAt = filters.q ? sql`(${orders.createdAt} + interval '0 seconds')` : sql`${orders.createdAt}`;
  return [sql`${createdAt} desc`, desc(orders.id)];
}

/** Issue 10: every order the filters match, newest first, one page of them and how many in all. */
export async function searchStaffOrders(
  db: Database,
  filters: StaffOrderFilters,
  options: { page: number; pageSize?: number },
): Promise<{ rows: StaffOrderRow[]; total: number }> {
  const pageSize = options.pageSize ?? STAFF_ORDERS_PAGE_SIZE;
  const page = Math.max(1, Math.floor(options.page) || 1);
  const where = staffOrderConditions(filters);
  const [[counted], rows] = await Promise.all([
    db.select({ total: count() }).from(orders).where(where),
    db
      .select({
        id: orders.id,
        orderNumber: orders.orderNumber,
        createdAt: orders.createdAt,
        status: orders.status,
        orderType: orders.orderType,
        firstName: orders.customerFirstName,
        lastName: orders.customerLastName,
        customerEmail: orders.customerEmail,
        districtName: orders.districtName,
        paymentMethod: orders.paymentMethod,
        totalCents: orders.totalCents,
      })
      .from(orders)
      .where(where)
      .orderBy(...newestFirst(filters))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
  ]);
  return {
    rows: rows.map(({ firstName, lastName, createdAt, ...row }) => ({ ...row, customerName: `${firstName} ${lastName}`, createdAt: createdAt.toISOString() })),
    total: Number(counted?.total ?? 0),
  };
}
