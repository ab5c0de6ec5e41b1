import { eq } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import type { Database } from "../db/client";
import { cachedRead } from "../db/read-cache";
import { legalTexts } from "../db/schema";
import { fillIssuerPlaceholders, getIssuer } from "./issuer";

export type LegalTextSlug = "terminos-condiciones" | "politica-privacidad";

export interface LegalText {
  title: string;
  html: string;
  updatedOn: string;
}

/**
 * Legal HTML is stored content, so it is sanitized on every read: whatever reaches the table,
 * only document structure and safe links reach the page.
 */
export function sanitizeLegalHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ["h2", "h3", "h4", "p", "ul", "ol", "li", "strong", "em", "b", "i", "a", "br", "blockquote"],
    allowedAttributes: { a: ["href"] },
    allowedSchemes: ["https", "mailto", "tel"],
    allowProtocolRelative: false,
  });
}

/** Null when the text is missing or unreadable: the page shows 'No se pudo cargar el contenido'. */
// Sanitizing ~10 KB of HTML costs more than the query, so the sanitized text is what is cached.
const readLegalText = cachedRead(async (db: Database, slug: LegalTextSlug): Promise<LegalText | null> => {
  const [row] = await db.select().from(legalTexts).where(eq(legalTexts.slug, slug)).limit(1);
  if (!row) return null;
  const issuer = await getIssuer(db);
  return { title: row.title, html: sanitizeLegalHtml(fillIssuerPlaceholders(row.contentHtml, issuer)), updatedOn: row.updatedOn };
});

export async function findLegalText(db: Database, slug: LegalTextSlug): Promise<LegalText | null> {
  try {
    return await readLegalText(db, slug);
  } catch (error) {
    console.error("Could not read legal text", slug, error);
    return null;
  }
}
