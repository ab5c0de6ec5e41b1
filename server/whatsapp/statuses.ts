import { asc, eq, sql } from "drizzle-orm";
import { whatsappContacts, whatsappMessages, whatsappStatusEvents } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

/** What Meta reports of a message it accepted (its status webhooks). */
export type ReportedStatus = "sent" | "delivered" | "read" | "failed";

export interface StatusReport {
  wamid: string;
  status: ReportedStatus;
  occurredAt: Date;
  errorCode: number | null;
  errorTitle: string | null;
}

/** The number cannot receive WhatsApp (not on WhatsApp, or cannot receive from a business). */
export const UNDELIVERABLE_CODE = 131026;

/**
 * Statuses a report may move a message out of: only forwards (sent < delivered < read), so a late
 * or repeated webhook never moves a message back. `failed` ends a message not yet delivered.
 */
const MOVES_FROM: Record<ReportedStatus, string[]> = {
  sent: ["accepted"],
  delivered: ["accepted", "sent"],
  read: ["accepted", "sent", "delivered"],
  failed: ["accepted", "sent"],
};

const STAMP = { sent: "sentAt", delivered: "deliveredAt", read: "readAt", failed: "failedAt" } as const;

/**
 * Records one status Meta reported, once per message and status whatever how often it arrives
 * (unique key), then applies it to its message if the shop knows it yet (a status may come before
 * the send's answer was written; `applyRecordedStatuses` then applies it). Returns whether it was new.
 */
export async function recordStatusReport(db: DatabaseOrTransaction, report: StatusReport, now: Date): Promise<boolean> {
  const inserted = await db
    .insert(whatsappStatusEvents)
    .values({
      wamid: report.wamid,
      status: report.status,
      occurredAt: report.occurredAt,
      errorCode: report.errorCode,
      errorTitle: report.errorTitle,
      receivedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: whatsappStatusEvents.id });
  await applyStatus(db, report, now);
  return inserted.length > 0;
}

/** Applies every status already recorded for a message id (called once its send is recorded). */
export async function applyRecordedStatuses(db: DatabaseOrTransaction, wamid: string, now: Date): Promise<void> {
  const recorded = await db.select().from(whatsappStatusEvents).where(eq(whatsappStatusEvents.wamid, wamid)).orderBy(asc(whatsappStatusEvents.id));
  for (const event of recorded) await applyStatus(db, { ...event, status: event.status as ReportedStatus }, now);
}

async function applyStatus(db: DatabaseOrTransaction, report: StatusReport, now: Date): Promise<void> {
  if (!(report.status in MOVES_FROM)) return;
  const stamp = STAMP[report.status];
  const stampColumn = whatsappMessages[stamp];
  const movable = sql.join(
    MOVES_FROM[report.status].map((status) => sql`${status}`),
    sql`, `,
  );
  const failure =
    report.status === "failed"
      ? {
          errorCode: sql`case when ${whatsappMessages.status} in (${movable}) then ${report.errorCode}::int else ${whatsappMessages.errorCode} end`,
          lastError: sql`case when ${whatsappMessages.status} in (${movable}) then ${report.errorTitle ?? "Meta no pudo entregar el mensaje"} else ${whatsappMessages.lastError} end`,
        }
      : {};
  const [message] = await db
    .update(whatsappMessages)
    .set({
      // Every moment is kept even when the status has moved past it (a "delivered" after "read").
      [stamp]: sql`coalesce(${stampColumn}, ${report.occurredAt.toISOString()}::timestamptz)`,
      status: sql`case when ${whatsappMessages.status} in (${movable}) then ${report.status} else ${whatsappMessages.status} end`,
      ...failure,
    })
    .where(eq(whatsappMessages.wamid, report.wamid))
    .returning({ toPhone: whatsappMessages.toPhone, status: whatsappMessages.status });
  if (message && report.status === "failed" && report.errorCode === UNDELIVERABLE_CODE) await markUnreachable(db, message.toPhone, report.errorTitle, now);
}

/**
 * Error 131026: the number cannot get WhatsApp messages. No more are queued or sent to it (the
 * customer keeps getting every e-mail) until it opts in again.
 */
export async function markUnreachable(db: DatabaseOrTransaction, phone: string, reason: string | null, now: Date): Promise<void> {
  const values = { unreachableAt: now, unreachableReason: reason ?? "Número no disponible en WhatsApp (131026)", updatedAt: now };
  await db
    .insert(whatsappContacts)
    .values({ phone, ...values })
    .onConflictDoUpdate({ target: whatsappContacts.phone, set: values, setWhere: sql`${whatsappContacts.unreachableAt} is null` });
}
