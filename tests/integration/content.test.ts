import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fallbackHistorySlides, findLegalText, getSiteSettings, listHistorySlides, listOrganizations, listServedDistricts } from "@server/content/index.server";
import { historyEntries, legalTexts, organizations, siteSettings } from "@server/db/schema";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

describe("content", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("lists only served districts, alphabetically in Spanish, with their weekdays", async () => {
    const served = await listServedDistricts(test.db);
    expect(served).toHaveLength(21);
    expect(served[0]?.name).toBe("Ate");
    const names = served.map((district) => district.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "es")));
    expect(names).not.toContain("Ancón");
    expect(served.find((district) => district.name === "Miraflores")?.dayNumbers).toEqual([1, 3, 5]);
    expect(served.find((district) => district.name === "Santiago de Surco")?.dayNumbers).toEqual([2, 4, 6]);
  });

  it("lists organisations in creation order and an empty list when the read fails", async () => {
    const list = await listOrganizations(test.db);
    expect(list.map((organization) => organization.title)).toEqual([
      "Bosques Vivos Lima",
      "Red de Comedores Populares",
      "Playas Limpias Perú",
      "Agua para Escuelas",
    ]);
    expectConsoleError(/Could not read organizations/);
    await test.db.execute(sql`alter table ${organizations} rename to organizations_away`);
    try {
      expect(await listOrganizations(test.db)).toEqual([]);
    } finally {
      await test.db.execute(sql`alter table organizations_away rename to organizations`);
    }
  });

  it("orders history by its order key with nulls last, then by creation", async () => {
    await test.db.insert(historyEntries).values({ title: "Sin orden", description: "x", sortOrder: null });
    await test.db.insert(historyEntries).values({ title: "Primero", description: "x", sortOrder: 0 });
    const titles = (await listHistorySlides(test.db)).map((slide) => slide.title);
    expect(titles[0]).toBe("Primero");
    expect(titles.at(-1)).toBe("Sin orden");
    await test.db.delete(historyEntries).where(sql`${historyEntries.title} in ('Sin orden', 'Primero')`);
  });

  it("falls back to the built-in slides when history is empty or unreadable", async () => {
    expectConsoleError(/Could not read history entries/);
    await test.db.execute(sql`alter table ${historyEntries} rename to history_away`);
    try {
      expect(await listHistorySlides(test.db)).toEqual(fallbackHistorySlides);
    } finally {
      await test.db.execute(sql`alter table history_away rename to history_entries`);
    }
    await test.db.execute(sql`create temporary table history_backup as select * from ${historyEntries}`);
    await test.db.delete(historyEntries);
    expect(await listHistorySlides(test.db)).toEqual(fallbackHistorySlides);
    expect(fallbackHistorySlides.map((slide) => slide.title)).toEqual(["Marzo 2025", "Junio 2025", "Octubre 2025"]);
  });

  it("serves legal texts sanitized, and null when missing", async () => {
    await test.db
      .update(legalTexts)
      .set({ contentHtml: '<h2>Uno</h2><script>alert(1)</script><p onclick="x()">Texto</p>' })
      .where(eq(legalTexts.slug, "terminos-condiciones"));
    const terms = await findLegalText(test.db, "terminos-condiciones");
    expect(terms).toEqual({ title: "Términos y Condiciones", html: "<h2>Uno</h2><p>Texto</p>", updatedOn: "2025-08-15" });
    await test.db.delete(legalTexts).where(eq(legalTexts.slug, "politica-privacidad"));
    expect(await findLegalText(test.db, "politica-privacidad")).toBeNull();
  });

  it("reads the brand from settings, with a fallback when the row is missing", async () => {
    expect((await getSiteSettings(test.db)).brandName).toBe("Vida Alcalina");
    await test.db.update(siteSettings).set({ brandName: "Agua Nueva" });
    expect((await getSiteSettings(test.db)).brandName).toBe("Agua Nueva");
    await test.db.delete(siteSettings);
    expect((await getSiteSettings(test.db)).brandName).toBe("Vida Alcalina");
  });
});
