import { asc, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { complaintAnswerDeadline, deadlineCountdown, type DeadlineCountdown } from "@core/business-days";
import type { ComplaintKind } from "@core/complaints-book";
import { limaToday } from "@core/lima-dates";
import { loadNationalHolidays } from "../deliveries/index.server";
import { complaintAnswers, complaints } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

export type ComplaintInboxFilter = "pendientes" | "respondidos" | "todos";

export interface ComplaintInboxRow {
  id: string;
  sheetNumber: string;
  filedAt: string;
  consumerName: string;
  kind: ComplaintKind;
  /** The last day to answer (15 business days after filing, holidays from the delivery calendar). */
  deadline: string;
  answeredAt: string | null;
  /** Null once answered. */
  countdown: DeadlineCountdown | null;
}

/** How many sheets the inbox shows at once: pending ones oldest first (the nearest deadline on top). */
export const COMPLAINT_INBOX_LIMIT = 200;

/** The staff inbox of the Libro de Reclamaciones, with each sheet's deadline counted down in business days. */
export async function listComplaintInbox(db: DatabaseOrTransaction, filter: ComplaintInboxFilter, { now }: { now: Date }): Promise<ComplaintInboxRow[]> {
  const holidays = await loadNationalHolidays(db);
  const today = limaToday(now);
  const where = filter === "pendientes" ? isNull(complaintAnswers.id) : filter === "respondidos" ? isNotNull(complaintAnswers.id) : undefined;
  const rows = await db
    .select({
      id: complaints.id,
      sheetNumber: complaints.sheetNumber,
      filedAt: complaints.filedAt,
      filedOn: complaints.filedOn,
      names: complaints.consumerNames,
      surnames: complaints.consumerSurnames,
      kind: complaints.kind,
      answeredAt: complaintAnswers.answeredAt,
    })
    .from(complaints)
    .leftJoin(complaintAnswers, eq(complaintAnswers.complaintId, complaints.id))
    .where(where)
    .orderBy(filter === "pendientes" ? asc(complaints.filedAt) : desc(complaints.filedAt), asc(complaints.id))
    .limit(COMPLAINT_INBOX_LIMIT);
  return rows.map((row) => {
    const deadline = complaintAnswerDeadline(row.filedOn, holidays);
    return {
      id: row.id,
      sheetNumber: row.sheetNumber,
      filedAt: row.filedAt.toISOString(),
      consumerName: `${row.names} ${row.surnames}`,
      kind: row.kind as ComplaintKind,
      deadline,
      answeredAt: row.answeredAt?.toISOString() ?? null,
      countdown: row.answeredAt ? null : deadlineCountdown(today, deadline, holidays),
    };
  });
}

/** One sheet's deadline and countdown, for its detail page. */
export async function complaintDeadline(
  db: DatabaseOrTransaction,
  filedOn: string,
  { now }: { now: Date },
): Promise<{ deadline: string; countdown: DeadlineCountdown }> {
  const holidays = await loadNationalHolidays(db);
  const deadline = complaintAnswerDeadline(filedOn, holidays);
  return { deadline, countdown: deadlineCountdown(limaToday(now), deadline, holidays) };
}
