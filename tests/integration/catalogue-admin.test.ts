import { readdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, like } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import {
  createProduct,
  createVariant,
  findProductBySlug,
  findRenamedProductSlug,
  listProductSlugs,
  listShopProducts,
  priceCartLines,
  updateProduct,
  updateVariant,
} from "@server/catalog/index.server";
import { overrideReadCacheTtl } from "@server/db/read-cache";
import { cacheGenerations, orderItems, outboxEmails, productVariants, products, staffActions, subscriptionItems, users } from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { IMAGE_TOO_LARGE, IMAGE_WRONG_TYPE, MAX_IMAGE_BYTES, prepareUploadedImage, readStoredImage, type PreparedImage } from "@server/media/index.server";
import { sandboxCardProvider } from "@server/payments/index.server";
import { renewDueSubscriptions, repriceSubscriptionsForCatalogChange } from "@server/subscriptions/index.server";
import { addDays } from "@core/lima-dates";
import { chargesOf, limaNoon, newCustomer, siteUrl, start, subscribe, subscriptionRow } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const onPriceChange = repriceSubscriptionsForCatalogChange;
/** Pack x 12 of the seed's first product: the variant every fixture subscription carries (2 of them). */
const PRODUCT_ID = 1;
const VARIANT_ID = 1;

const productForm = (overrides: Record<string, unknown> = {}) => ({
  title: "Agua alcalina 2 L",
  slug: "",
  description: "Botella familiar.",
  sku: "VA-2L",
  weightLabel: "2.1kg",
  dimensionsLabel: "10 x 30 x 10cm",
  priceCents: "9.90",
  sortOrder: "7",
  active: true,
  ...overrides,
});

describe("catalogue admin (issue 11)", () => {
  let test: TestDatabase;
  let admin: StaffActor;
  let uploads: string;
  const auditRows = (action: string, entityId: string) =>
    test.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.action, action), eq(staffActions.entityId, entityId)));
  const generation = async () => (await test.db.select().from(cacheGenerations).where(eq(cacheGenerations.scope, "storefront")))[0]?.generation ?? 0;
  const priceEmails = (subscriptionId: string) =>
    test.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, "subscription_price_change"), like(outboxEmails.dedupeKey, `%:${subscriptionId}`)))
      .orderBy(asc(outboxEmails.id));
  /** The fixture's checkout expects the seed's S/ 30.00: a test that changed it puts it back before subscribing again. */
  const seedPrice = async () => {
    await updateVariant(test.db, admin, PRODUCT_ID, VARIANT_ID, variantForm("30.00"), onPriceChange, start);
    return 3000;
  };
  const variantForm = (priceCents: string) => ({ title: "Pack x 12", sku: "VA-P625-12", priceCents, packSize: "12", sortOrder: "", active: true });

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email));
    admin = { id: row!.id, email: DEMO_ADMIN.email, role: "admin", clientAddress: "203.0.113.9" };
    uploads = await mkdtemp(path.join(tmpdir(), "catalogue-uploads-"));
    // The storefront's cache on, as in production: the public reads must show each change at once.
    overrideReadCacheTtl(60_000);
  });
  afterAll(async () => {
    overrideReadCacheTtl(null);
    await test.close();
    await rm(uploads, { recursive: true, force: true });
  });

  it("refuses bad values with Spanish messages and writes nothing", async () => {
    const countBefore = (await test.db.select().from(products)).length;
    const result = await createProduct(test.db, admin, { raw: productForm({ title: "A", slug: "Agua Alcalina", priceCents: "12.345", sortOrder: "-1" }) });
    expect(result).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: {
        title: expect.stringContaining("nombre"),
        slug: expect.stringContaining("minúsculas"),
        priceCents: "Escribe el precio en soles, por ejemplo 12.50",
        sortOrder: expect.stringContaining("número entero"),
      },
    });
    const variant = await createVariant(test.db, admin, PRODUCT_ID, { ...variantForm("0"), title: "Pack x 99" });
    expect(variant).toMatchObject({ ok: false, fieldErrors: { priceCents: expect.any(String) } });
    expect(await test.db.select().from(products)).toHaveLength(countBefore);
    expect(await createProduct(test.db, admin, { raw: productForm({ priceCents: "999999" }) })).toMatchObject({
      fieldErrors: { priceCents: "El precio es demasiado alto" },
    });
  });

  it("creates a product once (a double submit finds the first), audited, on the shop, its page and the sitemap at once", async () => {
    expect((await listShopProducts(test.db)).some((product) => product.slug === "agua-alcalina-2-l")).toBe(false);
    const generationBefore = await generation();
    const first = await createProduct(test.db, admin, { raw: productForm({ priceCents: "9,9" }) });
    const again = await createProduct(test.db, admin, { raw: productForm({ priceCents: "9.90" }) });
    expect(first).toMatchObject({ ok: true });
    expect(again).toEqual(first);
    const id = (first as { id: number }).id;
    expect(await generation()).toBe(generationBefore + 1);
    expect(await auditRows("product.create", String(id))).toHaveLength(1);
    const [row] = await test.db.select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({ slug: "agua-alcalina-2-l", priceCents: 990, sortOrder: 7 });
    expect((await listShopProducts(test.db)).find((product) => product.id === id)?.minPriceCents).toBe(990);
    expect((await findProductBySlug(test.db, "agua-alcalina-2-l"))?.title).toBe("Agua alcalina 2 L");
    expect((await listProductSlugs(test.db)).map((entry) => entry.slug)).toContain("agua-alcalina-2-l");

    // Deactivated: off the shop and the sitemap, the row kept.
    await updateProduct(test.db, admin, id, { raw: productForm({ active: false }) }, onPriceChange);
    expect((await listShopProducts(test.db)).some((product) => product.id === id)).toBe(false);
    expect((await listProductSlugs(test.db)).map((entry) => entry.slug)).not.toContain("agua-alcalina-2-l");
  });

  it("keeps the slug when the name changes; a new slug leaves the old one redirecting, never given to another product", async () => {
    const created = await createProduct(test.db, admin, { raw: productForm({ title: "Agua con gas", slug: "agua-con-gas", sku: "VA-GAS" }) });
    const id = (created as { id: number }).id;
    await updateProduct(test.db, admin, id, { raw: productForm({ title: "Agua con gas natural", slug: "", sku: "VA-GAS" }) }, onPriceChange);
    expect((await test.db.select().from(products).where(eq(products.id, id)))[0]?.slug).toBe("agua-con-gas");

    const renamed = await updateProduct(
      test.db,
      admin,
      id,
      { raw: productForm({ title: "Agua con gas natural", slug: "agua-gasificada", sku: "VA-GAS" }) },
      onPriceChange,
    );
    expect(renamed).toEqual({ ok: true, id });
    expect(await findProductBySlug(test.db, "agua-con-gas")).toBeNull();
    expect(await findRenamedProductSlug(test.db, "agua-con-gas")).toBe("agua-gasificada");
    expect((await findProductBySlug(test.db, "agua-gasificada"))?.id).toBe(id);

    const thief = await createProduct(test.db, admin, { raw: productForm({ title: "Otra agua", slug: "agua-con-gas", sku: "VA-OTRA" }) });
    expect(thief).toMatchObject({ ok: false, fieldErrors: { slug: expect.stringContaining("otro producto") } });
    const seeded = await updateProduct(test.db, admin, PRODUCT_ID, { raw: { ...productForm(), slug: "agua-con-gas" } }, onPriceChange);
    expect(seeded).toMatchObject({ ok: false, fieldErrors: { slug: expect.any(String) } });

    // Back to the first slug: it is current again and the second one now redirects.
    await updateProduct(test.db, admin, id, { raw: productForm({ title: "Agua con gas natural", slug: "agua-con-gas", sku: "VA-GAS" }) }, onPriceChange);
    expect(await findRenamedProductSlug(test.db, "agua-con-gas")).toBeNull();
    expect(await findRenamedProductSlug(test.db, "agua-gasificada")).toBe("agua-con-gas");
    expect(await auditRows("product.update", String(id))).toHaveLength(3);
  });

  it("deactivates a variant an order names instead of deleting it: the order keeps it, carts see it unavailable", async () => {
    const created = await createProduct(test.db, admin, { raw: productForm({ title: "Agua 5 L", slug: "agua-5-l", sku: "VA-5L", priceCents: "" }) });
    const productId = (created as { id: number }).id;
    expect(await createVariant(test.db, admin, productId, { ...variantForm("15.00"), title: "Pack x 2", sku: "VA-5L-2", packSize: "2" })).toEqual({
      ok: true,
      id: productId,
    });
    const [variant] = await test.db.select().from(productVariants).where(eq(productVariants.productId, productId));
    expect(variant).toMatchObject({ priceCents: 1500, packSize: 2, active: true });

    await updateVariant(
      test.db,
      admin,
      productId,
      variant!.id,
      { ...variantForm("15.00"), title: "Pack x 2", sku: "VA-5L-2", packSize: "2", active: false },
      onPriceChange,
    );
    expect((await test.db.select().from(productVariants).where(eq(productVariants.id, variant!.id)))[0]?.active).toBe(false);
    const cart = await priceCartLines(test.db, [{ productId, variantId: variant!.id, quantity: 1 }]);
    expect(cart.unavailable).toHaveLength(1);
    // A variant of another product is not this product's to edit: the Spanish 404.
    expect(await updateVariant(test.db, admin, PRODUCT_ID, variant!.id, variantForm("15.00"), onPriceChange)).toEqual({ ok: false, reason: "not_found" });
    // Seeded orders name the first variant; its row stays after deactivation (there is no delete).
    const named = await test.db.select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.variantId, VARIANT_ID));
    expect(named.length).toBeGreaterThan(0);
  });

  it("a price change reaches carts at once and a subscription from its next charge, with one e-mail and one audit entry", async () => {
    const old = await seedPrice();
    const customer = await newCustomer(test.db, "precio");
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    const nextBilling = (await subscriptionRow(test.db, subscriptionId)).nextBillingDate!;
    const changedAt = limaNoon(addDays(start.toISOString().slice(0, 10), 2));
    const newPrice = old + 500;

    const form = variantForm(`${newPrice / 100}`);
    expect(await updateVariant(test.db, admin, PRODUCT_ID, VARIANT_ID, form, onPriceChange, changedAt)).toEqual({ ok: true, id: PRODUCT_ID });
    expect(await updateVariant(test.db, admin, PRODUCT_ID, VARIANT_ID, form, onPriceChange, changedAt)).toEqual({ ok: true, id: PRODUCT_ID });

    const cart = await priceCartLines(test.db, [{ productId: PRODUCT_ID, variantId: VARIANT_ID, quantity: 2 }]);
    expect(cart.lines[0]?.unitPriceCents).toBe(newPrice);
    expect(await auditRows("product_variant.update", String(VARIANT_ID))).toHaveLength(1);

    const emails = await priceEmails(subscriptionId);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.toAddress).toBe(customer.email);
    expect(emails[0]?.text).toContain(`de S/ ${(old / 100).toFixed(2)} a S/ ${(newPrice / 100).toFixed(2)}`);
    expect(emails[0]?.text).toMatch(/desde el cobro del .*diciembre/);

    const [item] = await test.db.select().from(subscriptionItems).where(eq(subscriptionItems.subscriptionId, subscriptionId));
    expect(item).toMatchObject({ unitPriceCents: newPrice, pendingUnitPriceCents: null });
    expect((await subscriptionRow(test.db, subscriptionId)).baseAmountCents).toBe(newPrice * 2);

    await renewDueSubscriptions(test.db, { now: limaNoon(nextBilling), siteUrl, cardsFor: () => sandboxCardProvider(test.db) });
    const charges = await chargesOf(test.db, subscriptionId);
    expect(charges.at(-1)?.amountCents).toBe(Math.round(newPrice * 2 * 0.95));
  });

  it("a price changed on the billing day leaves that charge at the old price and applies from the following one", async () => {
    const old = await seedPrice();
    const customer = await newCustomer(test.db, "cobro");
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    const nextBilling = (await subscriptionRow(test.db, subscriptionId)).nextBillingDate!;
    const newPrice = old + 700;

    await updateVariant(test.db, admin, PRODUCT_ID, VARIANT_ID, variantForm(`${newPrice / 100}`), onPriceChange, limaNoon(nextBilling));
    const [parked] = await test.db.select().from(subscriptionItems).where(eq(subscriptionItems.subscriptionId, subscriptionId));
    expect(parked).toMatchObject({ unitPriceCents: old, pendingUnitPriceCents: newPrice });
    const [email] = await priceEmails(subscriptionId);
    expect(email?.text).toMatch(/desde el cobro del .*enero/);

    const renewAt = new Date(limaNoon(nextBilling).getTime() + 60_000);
    await renewDueSubscriptions(test.db, { now: renewAt, siteUrl, cardsFor: () => sandboxCardProvider(test.db) });
    expect((await chargesOf(test.db, subscriptionId)).at(-1)?.amountCents).toBe(Math.round(old * 2 * 0.95));
    const renewed = await test.db
      .select({ unitPriceCents: orderItems.unitPriceCents })
      .from(orderItems)
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(eq(orderItems.variantId, VARIANT_ID))
      .orderBy(asc(orderItems.id));
    expect(renewed.at(-1)?.unitPriceCents).toBe(old);

    const after = await subscriptionRow(test.db, subscriptionId);
    expect(after.baseAmountCents).toBe(newPrice * 2);
    expect(after.amountCents).toBe(Math.round(newPrice * 2 * 0.95));
    await renewDueSubscriptions(test.db, { now: limaNoon(after.nextBillingDate!), siteUrl, cardsFor: () => sandboxCardProvider(test.db) });
    expect((await chargesOf(test.db, subscriptionId)).at(-1)?.amountCents).toBe(Math.round(newPrice * 2 * 0.95));
    expect(await priceEmails(subscriptionId)).toHaveLength(1);
  });

  describe("image uploads", () => {
    const png = () =>
      sharp({ create: { width: 1200, height: 900, channels: 3, background: "#0ea5e9" } })
        .png()
        .toBuffer();

    it("stores a PNG as WebP at the storefront's 400 and 800 pixels under content-hashed names, once the product is saved", async () => {
      const prepared = await prepareUploadedImage(new File([await png()], "foto.png"), uploads);
      expect(prepared).toMatchObject({ ok: true, image: { path: expect.stringMatching(/^\/media\/[0-9a-f]{24}-400\.webp$/) } });
      const image = (prepared as { image: PreparedImage }).image;
      expect(await readdir(uploads)).toEqual([]);
      expect(await createProduct(test.db, admin, { raw: productForm({ title: "Agua con foto", slug: "agua-con-foto", sku: "VA-FOTO" }), image })).toMatchObject(
        { ok: true },
      );
      const name = image.path.slice("/media/".length);
      const files = (await readdir(uploads)).sort();
      expect(files).toEqual([name, name.replace("-400", "-800")].sort());
      const small = await sharp((await readStoredImage(name, uploads))!).metadata();
      expect(small).toMatchObject({ format: "webp", width: 400, height: 300 });
      const large = await sharp((await readStoredImage(name.replace("-400", "-800"), uploads))!).metadata();
      expect(large.width).toBe(800);
      expect(await readStoredImage("../catalogue-admin.test.ts", uploads)).toBeNull();
    });

    it("refuses SVG, GIF and other files whatever their name says, and files over 5 MB", async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
      expect(await prepareUploadedImage(new File([svg], "logo.png", { type: "image/png" }), uploads)).toEqual({ ok: false, message: IMAGE_WRONG_TYPE });
      const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#fff" } })
        .gif()
        .toBuffer();
      expect(await prepareUploadedImage(new File([gif], "foto.jpg"), uploads)).toEqual({ ok: false, message: IMAGE_WRONG_TYPE });
      expect(await prepareUploadedImage(new File([Buffer.from("%PDF-1.4 hola")], "foto.webp"), uploads)).toEqual({ ok: false, message: IMAGE_WRONG_TYPE });
      const huge = new File([Buffer.alloc(MAX_IMAGE_BYTES + 1)], "grande.png");
      expect(await prepareUploadedImage(huge, uploads)).toEqual({ ok: false, message: IMAGE_TOO_LARGE });
    });
  });
});
