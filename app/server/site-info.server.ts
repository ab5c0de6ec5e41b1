import { getSiteSettings } from "@server/content/index.server";
import type { Database } from "@server/db/index.server";
import { publicSiteUrl } from "@server/config/env";
import { whatsappEnabled } from "@server/whatsapp/index.server";
import type { SiteInfo } from "~/lib/seo";

/**
 * Brand and contact settings plus the public origin used for canonical URLs and, through the
 * routes, for every emailed link. The origin is configuration, never the request's Host header: a
 * forged Host would otherwise put an attacker's domain into a customer's order link (issue 9).
 */
export async function siteInfo(db: Database, _request?: Request): Promise<SiteInfo> {
  const settings = await getSiteSettings(db);
  const social = { instagram: settings.instagramUrl, facebook: settings.facebookUrl, tiktok: settings.tiktokUrl };
  return {
    siteUrl: publicSiteUrl(),
    brandName: settings.brandName,
    contactEmail: settings.contactEmail,
    whatsappNumber: settings.whatsappNumber,
    whatsappGreeting: settings.whatsappGreeting,
    closingCtaLabel: settings.closingCtaLabel,
    whatsappNotices: whatsappEnabled(),
    issuer: { legalName: settings.issuerLegalName, ruc: settings.issuerRuc, fiscalAddress: settings.issuerFiscalAddress },
    social,
    socialLinks: Object.values(social).filter((url): url is string => Boolean(url)),
  };
}
