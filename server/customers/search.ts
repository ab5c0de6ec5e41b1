import { and, asc, count, eq, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { users } from "../db/schema";

export const CUSTOMERS_PAGE_SIZE = 25;

export interface CustomerRow {
  id: string;
  fullName: string;
  email: string;
  phone: string | null;
  documentNumber: string | null;
  status: string;
  emailVerified: boolean;
  createdAt: string;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The "Buscar" box of /admin/clientes: e-mail by its beginning, every typed word beginning the
 * first or last name, the document (DNI, CE, RUC…) exactly, the phone by its digits (with or
 * without Peru's +51). Customer accounts only: staff are on /admin/equipo.
 */
function searchCondition(query: string): SQL {
  const lower = query.toLowerCase();
  const arms: SQL[] = [];
  if (!/\s/.test(lower)) arms.push(sql`lower(${users.email}) like ${`${escapeLike(lower)}%`}`);
  arms.push(sql`upper(${users.documentNumber}) = ${query.toUpperCase()}`);
  const digits = query.replace(/\D/g, "");
  if (digits.length >= 6 && /^[\d\s+().-]+$/.test(query)) {
    const local = digits.startsWith("51") && digits.length === 11 ? digits.slice(2) : digits;
    arms.push(sql`regexp_replace(coalesce(${users.phone}, ''), '[^0-9]', '', 'g') in (${local}, ${`51${local}`})`);
  }
  if (!lower.includes("@")) {
    const words = lower.split(/\s+/).filter(Boolean);
    // Each word begins a word of the first or last name ("ana qui" finds Ana María Quispe).
    const each = words.map((word) => sql`lower(' ' || ${users.firstName} || ' ' || ${users.lastName}) like ${`% ${escapeLike(word)}%`}`);
    if (each.length > 0) arms.push(and(...each)!);
  }
  return or(...arms)!;
}

export async function searchCustomers(db: Database, query: string, page: number): Promise<{ rows: CustomerRow[]; total: number }> {
  const q = query.trim();
  const where = and(eq(users.role, "customer"), q ? searchCondition(q) : undefined);
  const [counted] = await db.select({ total: count() }).from(users).where(where);
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      documentNumber: users.documentNumber,
      status: users.status,
      emailVerified: users.emailVerified,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(CUSTOMERS_PAGE_SIZE)
    .offset((page - 1) * CUSTOMERS_PAGE_SIZE);
  return {
    total: Number(counted?.total ?? 0),
    rows: rows.map(({ firstName, lastName, createdAt, ...row }) => ({
      ...row,
      fullName: `${firstName} ${lastName}`.trim(),
      createdAt: createdAt.toISOString(),
    })),
  };
}
