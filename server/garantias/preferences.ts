import { eq } from "drizzle-orm";
import { DEFAULT_GARANTIA_RETURN, type GarantiaReturnPreference } from "@core/garantia";
import type { Database } from "../db/client";
import { garantiaPreferences } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

/**
 * How a returned garantía comes back (decision 0075): the customer chooses in their account; a
 * guest, or a customer who never chose, gets it back through the payment provider (the terms say
 * "se reembolsa").
 */
export async function garantiaPreferenceOf(db: DatabaseOrTransaction, userId: string | null): Promise<GarantiaReturnPreference> {
  if (!userId) return DEFAULT_GARANTIA_RETURN;
  const [row] = await db.select({ preference: garantiaPreferences.preference }).from(garantiaPreferences).where(eq(garantiaPreferences.userId, userId));
  return row?.preference === "credit" ? "credit" : DEFAULT_GARANTIA_RETURN;
}

/** The customer's own choice, from their account (a POST). Saying it again changes nothing. */
export async function setGarantiaPreference(db: Database, userId: string, preference: GarantiaReturnPreference, now: Date): Promise<void> {
  await db
    .insert(garantiaPreferences)
    .values({ userId, preference, updatedAt: now })
    .onConflictDoUpdate({ target: garantiaPreferences.userId, set: { preference, updatedAt: now } });
}
