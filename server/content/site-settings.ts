import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { cachedRead } from "../db/read-cache";
import { siteSettings } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

export type SiteSettings = Omit<typeof siteSettings.$inferSelect, "id" | "updatedAt">;

/** Used only if the settings row is missing (a database created with SEED_DEMO_DATA=false). */
const fallbackSettings: SiteSettings = {
  brandName: "Vida Alcalina",
  whatsappNumber: "51987654321",
  whatsappGreeting: "¡Hola! Quisiera información sobre el agua alcalina.",
  contactEmail: "hola@vidaalcalina.pe",
  instagramUrl: null,
  facebookUrl: null,
  tiktokUrl: null,
  closingCtaLabel: "Compra ahora",
  /** Issue 10: what operaciones may refund on their own until the admin sets another limit (S/ 200.00). */
  operacionesRefundLimitCents: 20000,
  operacionesMayCancelAnyAmount: false,
  issuerLegalName: "VIDA ALCALINA S.A.C.",
  issuerRuc: "20601234565",
  issuerFiscalAddress: "Av. Benavides 1555, of. 302, Miraflores, Lima, Perú",
  issuerPhone: "+51 987 654 321",
  issuerIsDemo: true,
  reorderRemindersEnabled: true,
  garantiaComprobanteMode: "inafecto",
  doorPaymentEnabled: false,
  doorPaymentMaxCents: 50000,
  doorPaymentCustomers: "all",
  doorYapeNumber: null,
  deliveryPhotoRequiredAboveCents: null,
};

export const getSiteSettings = cachedRead(async (db: Database): Promise<SiteSettings> => {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  if (!row) return fallbackSettings;
  const { id: _id, updatedAt: _updatedAt, ...settings } = row;
  return settings;
});

type SettingName = keyof SiteSettings;

function columnsOf<K extends SettingName>(names: readonly K[]) {
  return Object.fromEntries(names.map((name) => [name, siteSettings[name]])) as { [P in K]: (typeof siteSettings)[P] };
}

/**
 * The named settings, read fresh by the handle given (never the storefront's cache): inside a
 * transaction the read is that transaction's. A missing row reads as the fallback settings.
 */
export async function readSiteSettingsFor<K extends SettingName>(db: DatabaseOrTransaction, names: readonly K[]): Promise<Pick<SiteSettings, K>> {
  const [row] = await db.select(columnsOf(names)).from(siteSettings).where(eq(siteSettings.id, 1));
  return (row ?? Object.fromEntries(names.map((name) => [name, fallbackSettings[name]]))) as Pick<SiteSettings, K>;
}

/** The brand the customer knows, for e-mails and messages written now (fresh, in the caller's transaction). */
export async function readBrandName(db: DatabaseOrTransaction): Promise<string> {
  return (await readSiteSettingsFor(db, ["brandName"])).brandName;
}

/**
 * Locks the settings row in the caller's transaction and writes `changes`; returns the values they
 * replaced (for the caller's audit), or null when there is no row to change.
 */
export async function changeSiteSettings<K extends SettingName>(
  tx: DatabaseOrTransaction,
  changes: Pick<SiteSettings, K>,
  now: Date,
): Promise<Pick<SiteSettings, K> | null> {
  const names = Object.keys(changes) as K[];
  const [before] = await tx.select(columnsOf(names)).from(siteSettings).where(eq(siteSettings.id, 1)).for("update");
  if (!before) return null;
  await tx
    .update(siteSettings)
    .set({ ...changes, updatedAt: now })
    .where(eq(siteSettings.id, 1));
  return before as Pick<SiteSettings, K>;
}
