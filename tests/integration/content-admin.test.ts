import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { limaToday } from "@core/lima-dates";
import type { StaffActor } from "@server/audit/index.server";
import {
  createHistoryEntry,
  createOrganization,
  deleteHistoryEntry,
  findLegalText,
  getIssuer,
  getSiteSettings,
  invalidateStorefront,
  listHistorySlides,
  listLegalTextVersions,
  listOrganizations,
  saveLegalText,
  updateIssuer,
  updateOrganization,
  updateSiteSettings,
  voteForOrganization,
} from "@server/content/index.server";
import { overrideReadCacheTtl } from "@server/db/read-cache";
import { cacheGenerations, legalTexts, legalTextVersions, siteSettings, staffActions, users } from "@server/db/schema";
import { DEMO_ADMIN, DEMO_CUSTOMER } from "@server/db/seed/demo-accounts";
import { GENERATION_POLL_MS, refreshStorefrontGeneration, storefrontCacheGeneration } from "@server/db/storefront-cache";
import { inTransaction } from "@server/db/transaction";
import { closeStorefrontAdmin, openStorefrontAdmin, storefrontGeneration } from "../support/storefront-admin";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const SITE = {
  brandName: "Vida Alcalina",
  whatsappNumber: "987 654 320",
  whatsappGreeting: "¡Hola! Quiero agua alcalina.",
  contactEmail: "ventas@vidaalcalina.pe",
  instagramUrl: "",
  facebookUrl: "https://www.facebook.com/vidaalcalina.pe",
  tiktokUrl: "",
  closingCtaLabel: "Pide hoy",
};
const ISSUER = { legalName: "AGUAS DEL SUR S.A.C.", ruc: "20456789014", fiscalAddress: "Jr. Cusco 120, Lima", phone: "+51 1 555 0101" };
const TERMS_HTML = "<h2>1. Generalidades</h2><p>{{razon_social}} (RUC {{ruc}}) vende agua alcalina en Lima.</p><script>alert(1)</script>";

describe("content admin (issue 11)", () => {
  let test: TestDatabase;
  let admin: StaffActor;
  const auditRows = (action: string) => test.db.select().from(staffActions).where(eq(staffActions.action, action)).orderBy(staffActions.id);
  const generation = () => storefrontGeneration(test);

  beforeAll(async () => {
    ({ test, admin } = await openStorefrontAdmin());
  });
  afterAll(() => closeStorefrontAdmin(test));

  it("saves a legal text as a new kept version dated today in Lima, sanitized, audited, and shown on the public page at once", async () => {
    const now = new Date();
    const before = await findLegalText(test.db, "terminos-condiciones");
    expect(before?.updatedOn).toBe("2025-08-15");
    const generationBefore = await generation();

    const result = await saveLegalText(test.db, admin, "terminos-condiciones", { title: "Términos y Condiciones", html: TERMS_HTML }, now);
    expect(result).toMatchObject({ ok: true });

    const shown = await findLegalText(test.db, "terminos-condiciones");
    expect(shown?.updatedOn).toBe(limaToday(now));
    expect(shown?.html).toContain("VIDA ALCALINA S.A.C. (RUC 20601234565) vende agua alcalina");
    expect(shown?.html).not.toContain("script");
    const [stored] = await test.db.select().from(legalTexts).where(eq(legalTexts.slug, "terminos-condiciones"));
    expect(stored?.contentHtml).toBe("<h2>1. Generalidades</h2><p>{{razon_social}} (RUC {{ruc}}) vende agua alcalina en Lima.</p>");

    const versions = await listLegalTextVersions(test.db, "terminos-condiciones");
    expect(versions.map((version) => [version.effectiveOn, version.savedBy])).toEqual([
      [limaToday(now), DEMO_ADMIN.email],
      ["2025-08-15", "carga inicial"],
    ]);
    const [entry] = await auditRows("legal_text.update");
    expect(entry).toMatchObject({ actorEmail: DEMO_ADMIN.email, entityType: "legal_text", entityId: "terminos-condiciones", clientAddress: "203.0.113.9" });
    expect(entry!.after).toMatchObject({ updatedOn: limaToday(now), versionId: versions[0]!.id });
    expect(await generation()).toBe(generationBefore + 1);
  });

  it("keeps every version: the database refuses to rewrite or remove one", async () => {
    await expect(test.db.update(legalTextVersions).set({ title: "otro" })).rejects.toThrow();
    await expect(test.db.delete(legalTextVersions)).rejects.toThrow();
    expect(await listLegalTextVersions(test.db, "terminos-condiciones")).toHaveLength(2);
  });

  it("refuses a legal text left empty once its disallowed markup is removed, writing nothing", async () => {
    const result = await saveLegalText(
      test.db,
      admin,
      "politica-privacidad",
      { title: "Política de Privacidad", html: "<script>robar()</script><img src=x onerror=y>" },
      new Date(),
    );
    expect(result).toMatchObject({ ok: false, reason: "invalid", fieldErrors: { html: expect.stringMatching(/^El texto/) } });
    expect(await listLegalTextVersions(test.db, "politica-privacidad")).toHaveLength(1);
  });

  it("refuses a RUC whose SUNAT check digit is wrong, in Spanish, writing and auditing nothing", async () => {
    const result = await updateIssuer(test.db, admin, { ...ISSUER, ruc: "20456789015" }, new Date());
    expect(result).toEqual({ ok: false, reason: "invalid", fieldErrors: { ruc: expect.stringMatching(/^El RUC no es válido/) } });
    expect((await getIssuer(test.db)).ruc).toBe("20601234565");
    expect(await auditRows("settings.issuer")).toHaveLength(0);
  });

  it("saves the company's own issuer data: the demo flag goes, and legal pages and comprobantes name the company at once", async () => {
    expect((await getIssuer(test.db)).isDemo).toBe(true);
    expect(await updateIssuer(test.db, admin, { ...ISSUER, ruc: " 20456789014 " }, new Date())).toEqual({ ok: true });
    expect(await getIssuer(test.db)).toMatchObject({
      legalName: ISSUER.legalName,
      ruc: ISSUER.ruc,
      fiscalAddress: ISSUER.fiscalAddress,
      phone: ISSUER.phone,
      isDemo: false,
    });
    expect((await findLegalText(test.db, "terminos-condiciones"))?.html).toContain("AGUAS DEL SUR S.A.C. (RUC 20456789014)");
    const [entry] = await auditRows("settings.issuer");
    expect(entry!.before).toMatchObject({ issuerRuc: "20601234565", issuerIsDemo: true });
    expect(entry!.after).toMatchObject({ issuerRuc: "20456789014", issuerIsDemo: false });
  });

  it("saves site settings with the WhatsApp number in wa.me form, keeping empty social links as none", async () => {
    expect(await updateSiteSettings(test.db, admin, SITE, new Date())).toEqual({ ok: true });
    expect(await getSiteSettings(test.db)).toMatchObject({
      whatsappNumber: "51987654320",
      closingCtaLabel: "Pide hoy",
      instagramUrl: null,
      contactEmail: "ventas@vidaalcalina.pe",
    });
    const [entry] = await auditRows("settings.site");
    expect(entry!.before).toMatchObject({ whatsappNumber: "51987654321" });
    expect(entry!.after).toMatchObject({ whatsappNumber: "51987654320" });
  });

  it("refuses bad settings field by field in Spanish, writing nothing", async () => {
    const result = await updateSiteSettings(
      test.db,
      admin,
      { ...SITE, whatsappNumber: "12", contactEmail: "no-es-correo", tiktokUrl: "javascript:alert(1)" },
      new Date(),
    );
    expect(result).toMatchObject({ ok: false, reason: "invalid" });
    expect(Object.keys((result as { fieldErrors: object }).fieldErrors).sort()).toEqual(["contactEmail", "tiktokUrl", "whatsappNumber"]);
    const [row] = await test.db.select({ email: siteSettings.contactEmail }).from(siteSettings);
    expect(row?.email).toBe("ventas@vidaalcalina.pe");
  });

  it("keeps an inactive organisation out of the public list and its votes, and brings it back when reactivated", async () => {
    const created = await createOrganization(test.db, admin, {
      title: "Ríos Limpios",
      description: "Limpieza de riberas del Rímac.",
      image: "/images/org.png",
      active: false,
    });
    expect(created).toMatchObject({ ok: true });
    const id = (created as { id: number }).id;
    expect((await listOrganizations(test.db)).map((organization) => organization.id)).not.toContain(id);
    const [customer] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    expect(await voteForOrganization(test.db, { userId: customer!.id, organizationId: id, now: new Date() })).toEqual({
      ok: false,
      reason: "unknown_organization",
    });

    expect(
      await updateOrganization(test.db, admin, id, { title: "Ríos Limpios", description: "Limpieza de riberas del Rímac.", image: "", active: true }),
    ).toEqual({ ok: true, id });
    expect((await listOrganizations(test.db)).find((organization) => organization.id === id)).toMatchObject({ title: "Ríos Limpios", image: null });
    expect(await voteForOrganization(test.db, { userId: customer!.id, organizationId: id, now: new Date() })).toEqual({ ok: true, organizationId: id });
    expect((await auditRows("organization.update"))[0]!.before).toMatchObject({ active: false, image: "/images/org.png" });
    expect(await updateOrganization(test.db, admin, 999_999, { title: "X y Z", description: "Descripción larga", image: "", active: true })).toEqual({
      ok: false,
      reason: "not_found",
    });
  });

  it("changes nothing twice when a form is posted twice (double click, retry)", async () => {
    const versions = (await listLegalTextVersions(test.db, "terminos-condiciones")).length;
    expect(await saveLegalText(test.db, admin, "terminos-condiciones", { title: "Términos y Condiciones", html: TERMS_HTML }, new Date())).toEqual({
      ok: true,
    });
    expect(await listLegalTextVersions(test.db, "terminos-condiciones")).toHaveLength(versions);

    const settingsAudits = (await auditRows("settings.site")).length;
    expect(await updateSiteSettings(test.db, admin, SITE, new Date())).toEqual({ ok: true });
    expect(await auditRows("settings.site")).toHaveLength(settingsAudits);

    const form = { title: "Bosques de Lomas", description: "Reforestación de lomas costeras.", image: "", active: true };
    const [first, second] = await Promise.all([createOrganization(test.db, admin, form), createOrganization(test.db, admin, form)]);
    expect(first).toMatchObject({ ok: true });
    expect(second).toEqual(first);
    expect((await auditRows("organization.create")).filter((row) => row.entityId === String((first as { id: number }).id))).toHaveLength(1);
  });

  it("refuses an organisation logo that is not an image of the site", async () => {
    const result = await createOrganization(test.db, admin, {
      title: "Otra",
      description: "Descripción suficiente.",
      image: "https://evil.example/x.png",
      active: true,
    });
    expect(result).toMatchObject({ ok: false, fieldErrors: { image: expect.stringMatching(/imagen del sitio/) } });
  });

  it("orders new history slides by their number and removes one once", async () => {
    const created = await createHistoryEntry(test.db, admin, { title: "Enero 2025", description: "Empezamos.", image: "", sortOrder: "0" });
    const id = (created as { id: number }).id;
    expect((await listHistorySlides(test.db))[0]).toMatchObject({ id: String(id), title: "Enero 2025" });
    expect(await deleteHistoryEntry(test.db, admin, id)).toEqual({ ok: true, id });
    expect(await deleteHistoryEntry(test.db, admin, id)).toEqual({ ok: false, reason: "not_found" });
    expect((await listHistorySlides(test.db)).map((slide) => slide.id)).not.toContain(String(id));
    expect(await auditRows("history.delete")).toHaveLength(1);
  });
});

describe("storefront cache generation (decision 0040)", () => {
  let test: TestDatabase;
  const whatsapp = async () => (await getSiteSettings(test.db)).whatsappNumber;
  /** What another process's committed invalidation leaves in the database: a new row value and a higher generation. */
  const changeElsewhere = (number: string) =>
    test.db.execute(sql`with changed as (update site_settings set whatsapp_number = ${number} where id = 1)
      insert into cache_generations (scope, generation, reason) values ('storefront', 1, 'test')
      on conflict (scope) do update set generation = cache_generations.generation + 1`);

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    overrideReadCacheTtl(60_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    overrideReadCacheTtl(null);
    await test.close();
  });

  it("looks at the database at most once a second, and forgets cached reads when another process bumped the generation", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    expect(await whatsapp()).toBe("51987654321");
    // Just looked: no further look within the second, however many reads come.
    expect(refreshStorefrontGeneration(test.db)).toBeNull();
    await changeElsewhere("51900000001");
    expect(await whatsapp()).toBe("51987654321");
    vi.setSystemTime(Date.now() + GENERATION_POLL_MS);
    expect(await whatsapp()).toBe("51900000001");
    expect(refreshStorefrontGeneration(test.db)).toBeNull();
  });

  it("keeps cached reads while the generation stays", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await whatsapp();
    await test.db.update(siteSettings).set({ whatsappNumber: "51900000002" }).where(eq(siteSettings.id, 1));
    vi.setSystemTime(Date.now() + GENERATION_POLL_MS);
    expect(await whatsapp()).toBe("51900000001");
  });

  it("forgets at once in the process that invalidates, and a rolled-back invalidation leaves the database's generation as it was", async () => {
    const [before] = await test.db.select().from(cacheGenerations).where(eq(cacheGenerations.scope, "storefront"));
    const local = storefrontCacheGeneration();
    await expect(
      inTransaction(test.db, async (tx) => {
        await invalidateStorefront(tx, "test.rollback");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(storefrontCacheGeneration()).toBeGreaterThan(local);
    expect(
      (
        await test.db
          .select()
          .from(cacheGenerations)
          .where(and(eq(cacheGenerations.scope, "storefront")))
      )[0]?.generation,
    ).toBe(before?.generation);
    // The read after it goes to the database (the direct update of the previous test shows).
    expect(await whatsapp()).toBe("51900000002");

    await inTransaction(test.db, (tx) => invalidateStorefront(tx, "test.commit"));
    expect((await test.db.select().from(cacheGenerations).where(eq(cacheGenerations.scope, "storefront")))[0]).toMatchObject({
      generation: (before?.generation ?? 0) + 1,
      reason: "test.commit",
    });
  });
});
