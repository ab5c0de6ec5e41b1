import { and, asc, desc, eq, gte, inArray, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import { addDays, limaDayStart, limaToday } from "@core/lima-dates";
import { isStaffRole } from "../accounts/index.server";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { driverCashHandovers, orders, payments, users } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";

/** One order's money a driver took at the door (decision 0049). */
export interface DoorCollection {
  paymentId: string;
  orderId: string;
  orderNumber: string;
  customerName: string;
  amountCents: number;
  method: "cash" | "yape";
  collectedAt: Date;
  /**
   * The driver's phone time, when it was outside the window the server believes (decision 0089):
   * `collectedAt` is then when the server received the tap. Null when the phone's time was taken.
   */
  phoneTime: Date | null;
}

/** One count of a driver's cash for a day: revision 1 is the rendición, later ones its corrections. */
export interface CashHandover {
  id: string;
  revision: number;
  countedCents: number;
  expectedCents: number;
  note: string | null;
  recordedByEmail: string;
  recordedAt: Date;
}

export interface DriverCashBox {
  /** Null when the e-mail that collected matches no account any more: nothing can be recorded for it. */
  driverId: string | null;
  driverEmail: string;
  driverName: string;
  collections: DoorCollection[];
  /** Cash the driver must hand over. */
  cashCents: number;
  /** Paid by Yape into the shop's account: checked against the Yape statement, not handed over. */
  yapeCents: number;
  /** Newest first; the first is the rendición in force, the rest its history. */
  handovers: CashHandover[];
}

export interface CashBoxDay {
  date: string;
  drivers: DriverCashBox[];
  cashCents: number;
  yapeCents: number;
}

/** Door collections settled on one Lima day, oldest first; `driverEmail` narrows to one driver. */
async function collectionsOn(db: DatabaseOrTransaction, date: string, driverEmail?: string) {
  const conditions: SQL[] = [
    isNotNull(payments.collectedAtDoorBy),
    gte(payments.settledAt, limaDayStart(date)),
    lt(payments.settledAt, limaDayStart(addDays(date, 1))),
  ];
  if (driverEmail !== undefined) conditions.push(eq(payments.collectedAtDoorBy, driverEmail));
  const rows = await db
    .select({
      paymentId: payments.id,
      orderId: orders.id,
      orderNumber: orders.orderNumber,
      firstName: orders.customerFirstName,
      lastName: orders.customerLastName,
      amountCents: payments.amountCents,
      method: payments.method,
      collectedAt: payments.settledAt,
      phoneTime: payments.doorPhoneTime,
      driverEmail: payments.collectedAtDoorBy,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(...conditions))
    .orderBy(asc(payments.settledAt), asc(payments.id));
  return rows.map((row): { driverEmail: string; collection: DoorCollection } => ({
    driverEmail: row.driverEmail!,
    collection: {
      paymentId: row.paymentId,
      orderId: row.orderId,
      orderNumber: row.orderNumber,
      customerName: `${row.firstName} ${row.lastName}`.trim(),
      amountCents: row.amountCents,
      // Settlement writes the method the driver chose (cash or yape) on the payment.
      method: row.method === "yape" ? "yape" : "cash",
      collectedAt: row.collectedAt!,
      phoneTime: row.phoneTime,
    },
  }));
}

function totals(collections: DoorCollection[]) {
  let cashCents = 0;
  let yapeCents = 0;
  for (const collection of collections) {
    if (collection.method === "yape") yapeCents += collection.amountCents;
    else cashCents += collection.amountCents;
  }
  return { cashCents, yapeCents };
}

function handoverOf(row: typeof driverCashHandovers.$inferSelect): CashHandover {
  return {
    id: row.id,
    revision: row.revision,
    countedCents: row.countedCents,
    expectedCents: row.expectedCents,
    note: row.note,
    recordedByEmail: row.recordedByEmail,
    recordedAt: row.recordedAt,
  };
}

/**
 * The caja screen's day: each driver who collected at the door that Lima day or whose rendición
 * was recorded for it, with every collection, the totals per method and the rendición's history.
 */
export async function loadCashBoxDay(db: Database, date: string): Promise<CashBoxDay> {
  const collected = await collectionsOn(db, date);
  const handoverRows = await db.select().from(driverCashHandovers).where(eq(driverCashHandovers.workDate, date)).orderBy(desc(driverCashHandovers.revision));
  const emails = [...new Set(collected.map((row) => row.driverEmail))];
  const ids = [...new Set(handoverRows.map((row) => row.driverId))];
  const people =
    emails.length + ids.length === 0
      ? []
      : await db
          .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(or(emails.length ? inArray(users.email, emails) : sql`false`, ids.length ? inArray(users.id, ids) : sql`false`));

  const drivers = new Map<string, DriverCashBox>();
  const driverFor = (email: string) => {
    let box = drivers.get(email);
    if (!box) {
      const person = people.find((candidate) => candidate.email === email);
      box = {
        driverId: person?.id ?? null,
        driverEmail: email,
        driverName: person ? `${person.firstName} ${person.lastName}`.trim() : email,
        collections: [],
        cashCents: 0,
        yapeCents: 0,
        handovers: [],
      };
      drivers.set(email, box);
    }
    return box;
  };
  for (const { driverEmail, collection } of collected) driverFor(driverEmail).collections.push(collection);
  for (const row of handoverRows) {
    const person = people.find((candidate) => candidate.id === row.driverId);
    if (person) driverFor(person.email).handovers.push(handoverOf(row));
  }
  const list = [...drivers.values()].sort((a, b) => a.driverName.localeCompare(b.driverName, "es") || a.driverEmail.localeCompare(b.driverEmail));
  for (const box of list) Object.assign(box, totals(box.collections));
  return {
    date,
    drivers: list,
    cashCents: list.reduce((sum, box) => sum + box.cashCents, 0),
    yapeCents: list.reduce((sum, box) => sum + box.yapeCents, 0),
  };
}

/**
 * The driver's own figure for their phone: the cash they collected today (Lima) and the rendición
 * recorded for it, if any. Read by the driver's own identity only, never by a parameter.
 */
export async function driverCashToHandOver(
  db: Database,
  driver: { id: string; email: string },
  now: Date,
): Promise<{ date: string; cashCents: number; yapeCents: number; handover: CashHandover | null }> {
  const date = limaToday(now);
  const own = await collectionsOn(db, date, driver.email);
  const [latest] = await db
    .select()
    .from(driverCashHandovers)
    .where(and(eq(driverCashHandovers.driverId, driver.id), eq(driverCashHandovers.workDate, date)))
    .orderBy(desc(driverCashHandovers.revision))
    .limit(1);
  return { date, ...totals(own.map((row) => row.collection)), handover: latest ? handoverOf(latest) : null };
}

export type CashHandoverResult =
  /** `changed: false`: the same form arrived twice (double submit, retry); it was recorded once. */
  | { ok: true; changed: boolean; handover: CashHandover }
  /** Unknown or not a staff member: the caller answers 404. */
  | { ok: false; reason: "driver_not_found" }
  /** A day that has not started in Lima has no cash to count. */
  | { ok: false; reason: "future_date" }
  /** A correction must say why. */
  | { ok: false; reason: "note_required" }
  /** Someone recorded or corrected this rendición after the form was loaded; `current` is what is in force now. */
  | { ok: false; reason: "changed_meanwhile"; current: CashHandover | null };

/**
 * Records the cash operaciones counted from a driver for a day (decision 0060). `correctsRevision`
 * is the revision the form was showing (0 for none): the new row takes the next one, and the
 * unique (driver, day, revision) key lets only one of two equal posts land. A post that finds its
 * revision taken is the same request again when it carries the same figures from the same person,
 * and otherwise a refusal that shows what is in force, so no count is ever replaced unseen.
 * Locks: it only inserts (decision 0025, last place); the payments it sums are read unlocked.
 */
export async function recordCashHandover(
  db: Database,
  actor: StaffActor,
  input: { driverId: string; date: string; countedCents: number; note: string | null; correctsRevision: number; now: Date },
): Promise<CashHandoverResult> {
  if (input.date > limaToday(input.now)) return { ok: false, reason: "future_date" };
  if (input.correctsRevision > 0 && !input.note) return { ok: false, reason: "note_required" };
  return inTransaction(db, async (tx) => {
    const [driver] = await tx.select({ id: users.id, email: users.email, role: users.role }).from(users).where(eq(users.id, input.driverId));
    if (!driver || !isStaffRole(driver.role)) return { ok: false, reason: "driver_not_found" };
    const forDriverDay = and(eq(driverCashHandovers.driverId, driver.id), eq(driverCashHandovers.workDate, input.date));
    const [latest] = await tx.select().from(driverCashHandovers).where(forDriverDay).orderBy(desc(driverCashHandovers.revision)).limit(1);
    const revision = input.correctsRevision + 1;
    if ((latest?.revision ?? 0) === input.correctsRevision) {
      const { cashCents } = totals((await collectionsOn(tx, input.date, driver.email)).map((row) => row.collection));
      const [inserted] = await tx
        .insert(driverCashHandovers)
        .values({
          driverId: driver.id,
          workDate: input.date,
          revision,
          countedCents: input.countedCents,
          expectedCents: cashCents,
          note: input.note,
          recordedById: actor.id,
          recordedByEmail: actor.email,
          recordedAt: input.now,
        })
        .onConflictDoNothing()
        .returning();
      if (inserted) {
        await recordStaffAction(tx, actor, {
          action: revision === 1 ? "cash_handover.record" : "cash_handover.correct",
          entityType: "cash_handover",
          entityId: inserted.id,
          before: latest ? { revision: latest.revision, countedCents: latest.countedCents, note: latest.note } : null,
          after: {
            driverId: driver.id,
            driverEmail: driver.email,
            date: input.date,
            revision,
            countedCents: input.countedCents,
            expectedCents: cashCents,
            note: input.note,
          },
        });
        return { ok: true, changed: true, handover: handoverOf(inserted) };
      }
    }
    const [taken] = await tx
      .select()
      .from(driverCashHandovers)
      .where(and(forDriverDay, eq(driverCashHandovers.revision, revision)));
    if (taken && taken.recordedById === actor.id && taken.countedCents === input.countedCents && taken.note === input.note)
      return { ok: true, changed: false, handover: handoverOf(taken) };
    const [current] = await tx.select().from(driverCashHandovers).where(forDriverDay).orderBy(desc(driverCashHandovers.revision)).limit(1);
    return { ok: false, reason: "changed_meanwhile", current: current ? handoverOf(current) : null };
  });
}
