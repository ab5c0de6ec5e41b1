import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { cachedRead } from "../db/read-cache";
import { siteSettings } from "../db/schema";

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
  operacionesRefundLimitCents: 20000,
  operacionesMayCancelAnyAmount: false,
  issuerLegalName: "VIDA ALCALINA S.A.C.",
  issuerRuc: "20601234565",
  issuerFiscalAddress: "Av. Benavides 1555, of. 302, Miraflores, Lima, Perú",
  issuerPhone: "+51 987 654 321",
  issuerIsDemo: true,
  reorderRemindersEnabled: true,
  garantiaComprobanteMode: "inafecto",
};

export const getSiteSettings = cachedRead(async (db: Database): Promise<SiteSettings> => {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  if (!row) return fallbackSettings;
  const { id: _id, updatedAt: _updatedAt, ...settings } = row;
  return settings;
});
