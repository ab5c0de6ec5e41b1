import { eq } from "drizzle-orm";
import {
  doorPaymentSettingsSchema,
  issuerSchema,
  repeatSettingsSchema,
  siteSettingsSchema,
  type IssuerInput,
  type SiteSettingsInput,
} from "@core/content-schemas";
import type { StaffActor } from "../audit/index.server";
import { recordStaffAction } from "../audit/index.server";
import type { Database } from "../db/client";
import { siteSettings } from "../db/schema";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction } from "../db/transaction";
import { changesNothing, parseContent, type ContentSaveResult } from "./content-edit";

/** The demo shop's placeholder RUC (seed): while it is the issuer's, the data stays flagged as demo. */
export const DEMO_ISSUER_RUC = "20601234565";

type SettingsColumns = Partial<typeof siteSettings.$inferInsert>;

/**
 * One audited change of the settings row (id 1): locked, compared, written, recorded and made
 * visible to every process's storefront in one transaction (decision 0040).
 */
async function changeSettings(db: Database, actor: StaffActor, action: string, now: Date, changes: SettingsColumns): Promise<ContentSaveResult> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(siteSettings).where(eq(siteSettings.id, 1)).for("update");
    if (!row) return { ok: false, reason: "not_found" } as const;
    const before = Object.fromEntries(Object.keys(changes).map((key) => [key, row[key as keyof typeof row]]));
    if (changesNothing(before, changes)) return { ok: true } as const;
    await tx
      .update(siteSettings)
      .set({ ...changes, updatedAt: now })
      .where(eq(siteSettings.id, 1));
    await recordStaffAction(tx, actor, { action, entityType: "settings", entityId: "1", before, after: changes });
    await invalidateStorefront(tx, action);
    return { ok: true } as const;
  });
}

/** Brand, WhatsApp number and greeting, contact e-mail, social links, closing button label (issue 11). */
export async function updateSiteSettings(db: Database, actor: StaffActor, raw: Record<string, unknown>, now: Date): Promise<ContentSaveResult> {
  const parsed = parseContent(siteSettingsSchema, raw);
  if (!parsed.ok) return parsed;
  const input: SiteSettingsInput = parsed.data;
  return changeSettings(db, actor, "settings.site", now, { ...input });
}

/**
 * The issuer's data from the SUNAT Ficha RUC. The demo flag goes when the RUC is no longer the demo
 * shop's placeholder: comprobantes and legal pages then name the real company.
 */
export async function updateIssuer(db: Database, actor: StaffActor, raw: Record<string, unknown>, now: Date): Promise<ContentSaveResult> {
  const parsed = parseContent(issuerSchema, raw);
  if (!parsed.ok) return parsed;
  const input: IssuerInput = parsed.data;
  return changeSettings(db, actor, "settings.issuer", now, {
    issuerLegalName: input.legalName,
    issuerRuc: input.ruc,
    issuerFiscalAddress: input.fiscalAddress,
    issuerPhone: input.phone,
    issuerIsDemo: input.ruc === DEMO_ISSUER_RUC,
  });
}

/**
 * The reminders switch and the garantía's place on the comprobante (decisions 0075, 0076). A
 * garantía already charged keeps the treatment its order was placed with.
 */
export async function updateRepeatSettings(db: Database, actor: StaffActor, raw: Record<string, unknown>, now: Date): Promise<ContentSaveResult> {
  const parsed = parseContent(repeatSettingsSchema, raw);
  if (!parsed.ok) return parsed;
  return changeSettings(db, actor, "settings.repeat", now, { ...parsed.data });
}

/** Issue 38: pago contra entrega's switch, maximum, customers and the shop's Yape number. */
export async function updateDoorPaymentSettings(db: Database, actor: StaffActor, raw: Record<string, unknown>, now: Date): Promise<ContentSaveResult> {
  const parsed = parseContent(doorPaymentSettingsSchema, raw);
  if (!parsed.ok) return parsed;
  return changeSettings(db, actor, "settings.door_payment", now, { ...parsed.data });
}

/** The row as staff edit it, always fresh (never the storefront's cached copy). */
export async function readSettingsForEditing(db: Database) {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1));
  return row ?? null;
}
