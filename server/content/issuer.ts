import type { Database } from "../db/client";
import type { DatabaseOrTransaction } from "../db/transaction";
import { publicSiteUrl } from "../config/index.server";
import { getSiteSettings } from "./site-settings";

/** Who sells: printed on every comprobante, named on the legal pages, e-mails and JSON-LD. */
export interface Issuer {
  /** Nombre comercial, the brand the customer knows. */
  brandName: string;
  /** Razón social as registered with SUNAT. */
  legalName: string;
  /** 11 digits. */
  ruc: string;
  fiscalAddress: string;
  email: string;
  phone: string;
  /** Where the printed representation says the customer can check the document. */
  consultationUrl: string;
  /** True while the settings still hold the demo shop's placeholder data. */
  isDemo: boolean;
}

/** The issuer from site settings: the one source, edited by staff, never a constant in code. */
export async function getIssuer(db: Database | DatabaseOrTransaction): Promise<Issuer> {
  const settings = await getSiteSettings(db as Database);
  return {
    brandName: settings.brandName,
    legalName: settings.issuerLegalName,
    ruc: settings.issuerRuc,
    fiscalAddress: settings.issuerFiscalAddress,
    email: settings.contactEmail,
    phone: settings.issuerPhone,
    consultationUrl: new URL("/dashboard/facturas", publicSiteUrl()).toString(),
    isDemo: settings.issuerIsDemo,
  };
}

/**
 * Legal texts name the company through placeholders, so they never disagree with the comprobantes:
 * `{{razon_social}}`, `{{ruc}}`, `{{domicilio_fiscal}}`, `{{correo}}`, `{{telefono}}`, `{{marca}}`.
 * Values are HTML-escaped; an unknown placeholder is left as typed so an editor sees the mistake.
 */
export function fillIssuerPlaceholders(html: string, issuer: Issuer): string {
  const values: Record<string, string> = {
    razon_social: issuer.legalName,
    ruc: issuer.ruc,
    domicilio_fiscal: issuer.fiscalAddress,
    correo: issuer.email,
    telefono: issuer.phone,
    marca: issuer.brandName,
  };
  return html.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, key: string) => (key in values ? escapeHtml(values[key]!) : whole));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
