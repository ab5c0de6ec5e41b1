import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { orders } from "../db/schema";

/**
 * Whom a Ley 29733 request is about (decisions 0051 and 0061): a customer account (its id and
 * e-mail), or a guest buyer who never had one, known only by the e-mail on their orders
 * (`userId` null). The e-mail is compared lower-cased everywhere.
 */
export interface DataSubject {
  userId: string | null;
  email: string;
}

/**
 * The subject's orders. An account's are its own and the guest orders placed with its e-mail; a
 * guest's are the orders with their e-mail that no account owns (an account that bought with
 * another contact address keeps that order).
 */
export function ordersOf(subject: DataSubject): SQL {
  const byEmail = sql`lower(${orders.customerEmail}) = ${subject.email.toLowerCase()}`;
  return subject.userId ? or(eq(orders.userId, subject.userId), byEmail)! : and(isNull(orders.userId), byEmail)!;
}
