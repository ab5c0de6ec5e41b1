import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { abandonedCarts, complaintAnonymisations, complaints, contactMessages, orders, promotionalConsentEvents, users } from "../db/schema";
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
  /**
   * `account`: `id` is the user's. `guest`, a buyer without an account (decision 0061): `id` is
   * their latest matching order's. `person`, someone who never bought (decision 0064): `id` is a
   * reference to one of their rows (`reclamo-<uuid>`, `mensaje-<uuid>`…).
   */
  kind: CustomerKind;
}

export type CustomerKind = "account" | "guest" | "person";

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The "Buscar" box of /admin/clientes: e-mail by its beginning, every typed word beginning the
 * first or last name, the document (DNI, CE, RUC…) exactly, the phone by its digits (with or
 * without Peru's +51). Customer accounts only: staff are on /admin/equipo. "Nuevo pedido" finds
 * its callers with it too (callers.ts).
 */
export function accountSearchCondition(query: string): SQL {
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
 * People who never bought (decision 0064), for a typed query: the e-mails of complaint sheets,
 * contact messages, consent events and saved carts, by their beginning (and a sheet's document
 * exactly), each from its own index. One row per e-mail, named by its best row (a sheet, which the
 * law keeps, before a message, a consent event and a cart, which an anonymisation rewrites or
 * deletes), and none when an account or a guest order has the e-mail (their picture covers it) or
 * the person was anonymised (placeholders, marked sheets, deleted carts).
 */
function peopleWhoNeverBought(query: string): SQL | null {
  const lower = query.toLowerCase();
  const byEmail = !/\s/.test(lower);
  const document = /^[A-Za-z0-9-]{6,20}$/.test(query) ? query.toUpperCase() : null;
  if (!byEmail && !document) return null;
  const prefix = `${escapeLike(lower)}%`;
  const placeholder = `%@${ANONYMIZED_EMAIL_DOMAIN}`;
  const sheetMatches = or(byEmail ? sql`lower(${complaints.email}) like ${prefix}` : undefined, document ? eq(complaints.documentNumber, document) : undefined);
  const sources = [
    sql`select 1 as rank, 'reclamo-' || ${complaints.id}::text as reference, ${complaints.consumerNames} as first_name, ${complaints.consumerSurnames} as last_name,
        lower(${complaints.email}) as email, ${complaints.phone} as phone, ${complaints.documentNumber} as document_number, ${complaints.filedAt} as created_at
      from ${complaints}
      where (${sheetMatches!}) and not exists (select 1 from ${complaintAnonymisations} where ${complaintAnonymisations.complaintId} = ${complaints.id})`,
  ];
  if (byEmail)
    sources.push(
      sql`select 2, 'mensaje-' || ${contactMessages.id}::text, ${contactMessages.name}, '', lower(${contactMessages.email}), ${contactMessages.phone}, null, ${contactMessages.createdAt}
        from ${contactMessages} where lower(${contactMessages.email}) like ${prefix} and lower(${contactMessages.email}) not like ${placeholder}`,
      // Consent events and carts store the address lower-cased, as every form of the shop does.
      sql`select 3, 'consentimiento-' || ${promotionalConsentEvents.id}::text, '', '', ${promotionalConsentEvents.email}, null, null, ${promotionalConsentEvents.createdAt}
        from ${promotionalConsentEvents} where ${promotionalConsentEvents.email} like ${prefix} and ${promotionalConsentEvents.email} not like ${placeholder}`,
      sql`select 4, 'carrito-' || ${abandonedCarts.id}::text, '', '', ${abandonedCarts.email}, null, null, ${abandonedCarts.updatedAt}
        from ${abandonedCarts} where ${abandonedCarts.email} like ${prefix}`,
    );
  return sql`select * from (
      select distinct on (email) reference as id, first_name, last_name, email, phone, document_number, 'person' as status, false as email_verified,
        created_at, 'person' as kind
      from (${sql.join(sources, sql` union all `)}) sources
      where not exists (select 1 from ${users} where ${users.email} = sources.email)
        and not exists (select 1 from ${orders} where lower(${orders.customerEmail}) = sources.email and ${orders.userId} is null)
      order by email, rank, created_at desc, reference
    ) people`;
}

/**
 * Accounts and, once something is typed, guest buyers (decision 0061) and people who never bought
 * (decision 0064). Guests: one row per e-mail of the orders no account owns and no account's e-mail
 * matches, named by its latest matching order, found by the order search's indexed conditions
 * (e-mail and names by their beginning, phone digits, document, order number). Anonymised guests
 * and people are not listed. Exported for the test that checks every arm is answerable from an index.
 */
export function customersMatching(q: string): SQL {
  const accounts = sql`select ${users.id} as id, ${users.firstName} as first_name, ${users.lastName} as last_name, ${users.email} as email,
      ${users.phone} as phone, ${users.documentNumber} as document_number, ${users.status} as status, ${users.emailVerified} as email_verified,
      ${users.createdAt} as created_at, 'account' as kind
    from ${users} where ${and(eq(users.role, "customer"), q ? accountSearchCondition(q) : undefined)}`;
  if (!q) return accounts;
  const guests = sql`select * from (
      select distinct on (lower(${orders.customerEmail})) ${orders.id}::text as id, ${orders.customerFirstName} as first_name,
        ${orders.customerLastName} as last_name, lower(${orders.customerEmail}) as email, ${orders.customerPhone} as phone,
        ${orders.documentNumber} as document_number, 'guest' as status, false as email_verified, ${orders.createdAt} as created_at, 'guest' as kind
      from ${orders}
      where ${orders.userId} is null and (${staffOrderSearchCondition(q)})
        and lower(${orders.customerEmail}) not like ${`%@${ANONYMIZED_EMAIL_DOMAIN}`}
        and not exists (select 1 from ${users} where ${users.email} = lower(${orders.customerEmail}))
      order by lower(${orders.customerEmail}), ${orders.createdAt} desc, ${orders.id} desc
    ) guests`;
  const people = peopleWhoNeverBought(q);
  return sql.join([accounts, guests, ...(people ? [people] : [])], sql` union all `);
}

/** The "Buscar" box's one list: one order (last name, first name), one pager. */
export async function searchCustomers(db: Database, query: string, page: number): Promise<{ rows: CustomerRow[]; total: number }> {
  const everyone = customersMatching(query.trim());
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
      kind: row.kind,
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
  kind: CustomerKind;
}
