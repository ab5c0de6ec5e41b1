import { count } from "drizzle-orm";
import type { Database } from "../client";
import {
  districtDeliveryDays,
  districts,
  historyEntries,
  legalTexts,
  legalTextVersions,
  organizations,
  productImages,
  products,
  productVariants,
  siteSettings,
} from "../schema";
import { seedProducts } from "./catalog-data";
import { LEGAL_UPDATED_ON, seedHistoryEntries, seedOrganizations, seedSiteSettings } from "./content-data";
import { readSeedDistricts } from "./districts-data";
import { seedDemoAccounts } from "./demo-accounts";
import { privacyHtml, termsHtml } from "./legal-texts";
import { inTransaction } from "../transaction";
import { seedDeliveryCalendar } from "./delivery-calendar";
import { DISTRICT_CENTRES, seedDistrictCentres } from "./district-centres";

export const LEGAL_SLUGS = { terms: "terminos-condiciones", privacy: "politica-privacidad" } as const;

/**
 * Fills an empty database with the shop's own data: settings, catalogue, districts and their
 * delivery days, organisations, history and legal texts. This is what the shop needs to work, not
 * demo data (no account, no order). The settings row marks a seeded database, so a restart never
 * duplicates rows; everything is one transaction, so a crash leaves it empty.
 */
export async function seedBaseData(db: Database): Promise<{ seeded: boolean }> {
  // Before the early return: a database seeded before the delivery calendar existed gets it too.
  await inTransaction(db, (tx) => seedDeliveryCalendar(tx));
  // Issue 26: a database seeded before district centres existed gets them too (staff's are kept).
  await inTransaction(db, (tx) => seedDistrictCentres(tx));
  const [existing] = await db.select({ n: count() }).from(siteSettings);
  if (Number(existing?.n ?? 0) > 0) return { seeded: false };

  await inTransaction(db, async (tx) => {
    await tx.insert(siteSettings).values(seedSiteSettings);

    for (const product of seedProducts) {
      const { variants, ...row } = product;
      const [inserted] = await tx.insert(products).values(row).returning({ id: products.id });
      // The main picture is the gallery's first (decision 0057).
      if (row.image) await tx.insert(productImages).values({ productId: inserted!.id, image: row.image, position: 1 });
      if (variants.length > 0) {
        await tx.insert(productVariants).values(variants.map((variant) => ({ ...variant, packSize: packSizeOf(variant.title), productId: inserted!.id })));
      }
    }

    for (const district of readSeedDistricts()) {
      const { dayNumbers, ...row } = district;
      const centre = DISTRICT_CENTRES[row.ubigeo];
      const [inserted] = await tx
        .insert(districts)
        .values({ ...row, centerLat: centre?.lat ?? null, centerLng: centre?.lng ?? null })
        .returning({ id: districts.id });
      if (dayNumbers.length > 0) {
        await tx.insert(districtDeliveryDays).values(dayNumbers.map((dayNumber) => ({ districtId: inserted!.id, dayNumber })));
      }
    }

    await tx.insert(organizations).values(seedOrganizations);
    await tx.insert(historyEntries).values(seedHistoryEntries);
    const texts = [
      { slug: LEGAL_SLUGS.terms, title: "Términos y Condiciones", contentHtml: termsHtml, updatedOn: LEGAL_UPDATED_ON },
      { slug: LEGAL_SLUGS.privacy, title: "Política de Privacidad", contentHtml: privacyHtml, updatedOn: LEGAL_UPDATED_ON },
    ];
    await tx.insert(legalTexts).values(texts);
    // The first version of each text, so the version list starts with what was published.
    await tx
      .insert(legalTextVersions)
      .values(texts.map(({ slug, title, contentHtml, updatedOn }) => ({ slug, title, contentHtml, effectiveOn: updatedOn, savedBy: "carga inicial" })));
  });
  return { seeded: true };
}

/** Everything the demo needs: the shop, then the demo accounts with their history. */
export async function seedDemoShop(db: Database): Promise<void> {
  await seedBaseData(db);
  await seedDemoAccounts(db);
}

/**
 * What a start seeds (SEED_BASE_DATA, SEED_DEMO_DATA; docs/security.md): the demo accounts, one of
 * them an admin with a published password, only when asked for, which production never does by
 * default.
 */
export async function seedOnStart(db: Database, wanted: { base: boolean; demo: boolean }): Promise<{ base: boolean; demo: boolean }> {
  const base = wanted.base ? (await seedBaseData(db)).seeded : false;
  const demo = wanted.demo ? (await seedDemoAccounts(db)).seeded : false;
  return { base, demo };
}

/** "Pack x 12" → 12: the seed's titles name the pack size the admin edits as a number. */
function packSizeOf(title: string): number | null {
  const match = /x\s*(\d+)/i.exec(title);
  return match ? Number(match[1]) : null;
}
