import type { MetaDescriptor } from "react-router";
import { SHARE_IMAGE } from "@core/share-image";

/** What every page's head needs about the shop itself; comes from the root loader. */
export interface SiteInfo {
  siteUrl: string;
  brandName: string;
  contactEmail: string;
  whatsappNumber: string;
  whatsappGreeting: string;
  closingCtaLabel: string;
  /** Issue 25: WhatsApp notices are on (the Cloud API, or the local demo's stand-in): the opt-in boxes show. */
  whatsappNotices: boolean;
  /** The issuer (site settings): razón social, RUC and domicilio fiscal, for JSON-LD and footers. */
  issuer: { legalName: string; ruc: string; fiscalAddress: string };
  social: { instagram: string | null; facebook: string | null; tiktok: string | null };
  socialLinks: string[];
}

export interface PageSeo {
  title: string;
  description: string;
  keywords?: string;
  /** Spec §2: default index,follow; legal pages noindex,follow. */
  robots?: string;
  /** Path of the canonical URL, without origin. */
  path: string;
  /** Path of the page's share picture: a 1200×630 PNG (decision 0039), never an SVG. */
  image?: string;
  imageAlt?: string;
  ogType?: "website" | "product" | "article";
  /** Extra JSON-LD objects besides the Organization every page carries. */
  jsonLd?: Record<string, unknown>[];
}

/** The share pictures drawn by /og/… (server/social-images, decision 0039). */
export const DEFAULT_SHARE_IMAGE = "/og/inicio.png";
export const SHOP_SHARE_IMAGE = "/og/tienda.png";

export const DEFAULT_KEYWORDS = "agua alcalina, agua alcalina Lima, agua pH 8.5, bidón de agua, delivery de agua Lima, suscripción agua, agua con minerales";

export function absoluteUrl(site: SiteInfo, path: string): string {
  return new URL(path, site.siteUrl).toString();
}

export function organizationJsonLd(site: SiteInfo): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: site.brandName,
    url: absoluteUrl(site, "/"),
    logo: absoluteUrl(site, "/logo.svg"),
    email: site.contactEmail,
    telephone: `+${site.whatsappNumber}`,
    legalName: site.issuer.legalName,
    taxID: site.issuer.ruc,
    address: { "@type": "PostalAddress", streetAddress: site.issuer.fiscalAddress, addressLocality: "Lima", addressCountry: "PE" },
    areaServed: { "@type": "City", name: "Lima" },
    sameAs: site.socialLinks,
  };
}

/** Title, description, keywords, robots, canonical, Open Graph and JSON-LD for one page. */
export function pageMeta(site: SiteInfo | undefined, page: PageSeo): MetaDescriptor[] {
  const brand = site?.brandName ?? "Vida Alcalina";
  const canonical = site ? absoluteUrl(site, page.path) : page.path;
  const imagePath = page.image ?? DEFAULT_SHARE_IMAGE;
  const image = site ? absoluteUrl(site, imagePath) : imagePath;
  const tags: MetaDescriptor[] = [
    { title: page.title },
    { name: "description", content: page.description },
    { name: "keywords", content: page.keywords ?? DEFAULT_KEYWORDS },
    { name: "robots", content: page.robots ?? "index,follow" },
    { tagName: "link", rel: "canonical", href: canonical },
    { property: "og:site_name", content: brand },
    { property: "og:locale", content: "es_PE" },
    { property: "og:type", content: page.ogType ?? "website" },
    { property: "og:title", content: page.title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: canonical },
    { name: "twitter:card", content: "summary_large_image" },
  ];
  tags.push(
    { property: "og:image", content: image },
    { property: "og:image:type", content: SHARE_IMAGE.type },
    { property: "og:image:width", content: String(SHARE_IMAGE.width) },
    { property: "og:image:height", content: String(SHARE_IMAGE.height) },
    { property: "og:image:alt", content: page.imageAlt ?? page.title },
    { name: "twitter:image", content: image },
  );
  if (site) tags.push({ "script:ld+json": organizationJsonLd(site) });
  for (const jsonLd of page.jsonLd ?? []) tags.push({ "script:ld+json": jsonLd });
  return tags;
}

/** Finds the root loader's SiteInfo among a meta function's matches. */
export function siteFromMatches(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>): SiteInfo | undefined {
  const root = matches.find((match) => match?.id === "root");
  return (root?.loaderData as { site?: SiteInfo } | undefined)?.site;
}
