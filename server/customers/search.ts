import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders, users } from "../db/schema";
import { staffOrderSearchCondition } from "../orders/index.server";
import { ANONYMIZED_EMAIL_DOMAIN } from "./anonymise";

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
  /** A guest buyer without an account (decision 0061): `id` is their latest matching order's. */
  guest: boolean;
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

/**
 * Accounts and, once something is typed, guest buyers (decision 0061): one row per e-mail of the
 * orders no account owns and no account's e-mail matches, named by its latest matching order,
 * found by the order search's indexed conditions (e-mail and names by their beginning, phone
 * digits, document, order number). Anonymised guests are not listed. One list, one order (last
 * name, first name), one pager.
 */
export async function searchCustomers(db: Database, query: string, page: number): Promise<{ rows: CustomerRow[]; total: number }> {
  const q = query.trim();
  const accounts = sql`select ${users.id} as id, ${users.firstName} as first_name, ${users.lastName} as last_name, ${users.email} as email,
      ${users.phone} as phone, ${users.documentNumber} as document_number, ${users.status} as status, ${users.emailVerified} as email_verified,
      ${users.createdAt} as created_at, false as guest
    from ${users} where ${and(eq(users.role, "customer"), q ? searchCondition(q) : undefined)}`;
  const guests = sql`select * from (
      select distinct on (lower(${orders.customerEmail})) ${orders.id}::text as id, ${orders.customerFirstName} as first_name,
        ${orders.customerLastName} as last_name, lower(${orders.customerEmail}) as email, ${orders.customerPhone} as phone,
        ${orders.documentNumber} as document_number, 'guest' as status, false as email_verified, ${orders.createdAt} as created_at, true as guest
      from ${orders}
      where ${orders.userId} is null and (${staffOrderSearchCondition(q)})
        and lower(${orders.customerEmail}) not like ${`%@${ANONYMIZED_EMAIL_DOMAIN}`}
        and not exists (select 1 from ${users} where ${users.email} = lower(${orders.customerEmail}))
      order by lower(${orders.customerEmail}), ${orders.createdAt} desc, ${orders.id} desc
    ) guests`;
  const everyone = q ? sql`${accounts} union all ${guests}` : accounts;
  const counted = await db.execute(sql`select count(*)::int as total from (${everyone}) everyone`);
  const found = await db.execute(
    sql`select * from (${everyone}) everyone order by last_name, first_name, id limit ${CUSTOMERS_PAGE_SIZE} offset ${(page - 1) * CUSTOMERS_PAGE_SIZE}`,
  );
  const [total] = (counted as unknown as { rows: { total: number | string }[] }).rows;
  return {
    total: Number(total?.total ?? 0),
    rows: (found as unknown as { rows: SearchRow[] }).rows.map((row) => ({
      id: row.id,
      fullName: `${row.first_name} ${row.last_name}`.trim(),
      email: row.email,
      phone: row.phone,
      documentNumber: row.document_number,
      status: row.status,
      emailVerified: row.email_verified,
      createdAt: new Date(row.created_at).toISOString(),
      guest: row.guest,
    })),
  };
}

interface SearchRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  document_number: string | null;
  status: string;
  email_verified: boolean;
  created_at: Date | string;
  guest: boolean;
}
