import { eq } from "drizzle-orm";
import type { StaffActor } from "../audit/index.server";
import { recordStaffAction } from "../audit/index.server";
import { getIssuer } from "../content/index.server";
import type { Database } from "../db/client";
import { complaintAnswers, complaints } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { complaintAnswerEmail, enqueueEmail } from "../notifications/index.server";
import { complaintSheetView } from "./sheet";

export type AnswerComplaintResult = { ok: true; sheetNumber: string } | { ok: false; reason: "not_found" | "already_answered" };

/**
 * Appends the provider's answer to a sheet (the sheet itself is never edited), e-mails it to the
 * consumer with the whole sheet, and audits it — one transaction. One answer per sheet: a second
 * submit (double click, two staff at once) meets the unique key and changes nothing.
 */
export async function answerComplaint(
  db: Database,
  actor: StaffActor,
  { complaintId, answer }: { complaintId: string; answer: string },
  { now }: { now: Date },
): Promise<AnswerComplaintResult> {
  const issuer = await getIssuer(db);
  return inTransaction(db, async (tx) => {
    const [sheet] = await tx.select().from(complaints).where(eq(complaints.id, complaintId));
    if (!sheet) return { ok: false, reason: "not_found" } as const;
    const [row] = await tx
      .insert(complaintAnswers)
      .values({ complaintId, answer, answeredById: actor.id, answeredByEmail: actor.email, answeredAt: now })
      .onConflictDoNothing({ target: complaintAnswers.complaintId })
      .returning();
    if (!row) return { ok: false, reason: "already_answered" } as const;
    const view = complaintSheetView(sheet, row);
    await enqueueEmail(
      tx,
      {
        dedupeKey: `complaint-answer:${complaintId}`,
        kind: "complaint_answer",
        to: sheet.email,
        ...complaintAnswerEmail({ brandName: issuer.brandName, ...view, answer }),
      },
      now,
    );
    await recordStaffAction(tx, actor, {
      action: "complaint.answer",
      entityType: "complaint",
      entityId: complaintId,
      before: null,
      after: { sheetNumber: sheet.sheetNumber, answer },
    });
    return { ok: true, sheetNumber: sheet.sheetNumber } as const;
  });
}
