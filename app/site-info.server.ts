import { getSiteSettings } from "@server/content/index.server";
import type { Database } from "@server/db/index.server";
import { env } from "@server/config/env";
import type { SiteInfo } from "~/lib/seo";

/** Brand and contact settings plus the public origin used for canonical URLs. */
export async function siteInfo(db: Database, request: Request): Promise<SiteInfo> {
  const settings = await getSiteSettings(db);
  const social = { instagram: settings.instagramUrl, facebook: settings.facebookUrl, tiktok: settings.tiktokUrl };
  return {
    siteUrl: env().SITE_URL ?? new URL(request.url).origin,
    brandName: settings.brandName,
    contactEmail: settings.contactEmail,
    whatsappNumber: settings.whatsappNumber,
    whatsappGreeting: settings.whatsappGreeting,
    closingCtaLabel: settings.closingCtaLabel,
    social,
    socialLinks: Object.values(social).filter((url): url is string => Boolean(url)),
  };
}
