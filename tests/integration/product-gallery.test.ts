import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import {
  addProductImage,
  createProduct,
  findProductBySlug,
  listShopProducts,
  moveProductImage,
  priceCartLines,
  removeProductImage,
  updateProductImageAlt,
} from "@server/catalog/index.server";
import { migrationsFolder } from "@server/db/project-files";
import { productImages, products, staffActions } from "@server/db/schema";
import { MAX_PRODUCT_IMAGES } from "@core/catalog-schemas";
import { closeStorefrontAdmin, openStorefrontAdmin, storefrontGeneration } from "../support/storefront-admin";
import type { TestDatabase } from "../support/test-database";

/** A path as the media domain answers it (the gallery never opens the file). */
const picture = () => `/media/${randomBytes(12).toString("hex")}-400.webp`;

describe("product gallery (issue 11, decision 0057)", () => {
  let test: TestDatabase;
  let admin: StaffActor;
  let slugCount = 0;

  const generation = () => storefrontGeneration(test);
  const galleryActions = async (productId: number) =>
    (await test.db.select().from(staffActions).where(eq(staffActions.entityType, "product_image")).orderBy(asc(staffActions.id))).filter(
      (row) => (row.after as { productId?: number } | null)?.productId === productId || (row.before as { productId?: number } | null)?.productId === productId,
    );
  const gallery = (productId: number) =>
    test.db
      .select({ id: productImages.id, image: productImages.image, alt: productImages.alt, position: productImages.position })
      .from(productImages)
      .where(eq(productImages.productId, productId))
      .orderBy(asc(productImages.position));
  const mainImage = async (productId: number) => (await test.db.select({ image: products.image }).from(products).where(eq(products.id, productId)))[0]?.image;
  /** A new product with one picture, as the create form makes it. */
  const newProduct = async (image: string | null = picture()) => {
    slugCount += 1;
    const slug = `galeria-${slugCount}`;
    const raw = {
      title: `Agua galería ${slugCount}`,
      slug,
      description: "",
      sku: "",
      weightLabel: "",
      dimensionsLabel: "",
      priceCents: "9.90",
      sortOrder: "",
      active: true,
    };
    const created = await createProduct(test.db, admin, { raw, image });
    expect(created).toMatchObject({ ok: true });
    return { id: (created as { id: number }).id, slug };
  };

  beforeAll(async () => {
    ({ test, admin } = await openStorefrontAdmin());
  });
  afterAll(() => closeStorefrontAdmin(test));

  it("starts each seeded product's gallery with its picture, which the product page reads", async () => {
    const seeded = await test.db.select({ id: products.id, image: products.image, slug: products.slug }).from(products);
    for (const product of seeded) expect(await gallery(product.id)).toEqual([expect.objectContaining({ image: product.image, alt: "", position: 1 })]);
    const page = await findProductBySlug(test.db, seeded[0]!.slug);
    expect(page?.images).toEqual([{ image: seeded[0]!.image, alt: "" }]);
  });

  it("moves, by migration, a product's single picture to the first place of its gallery, once", async () => {
    const { id } = await newProduct();
    const image = await mainImage(id);
    // What a database held before galleries: the picture only in products.image.
    await test.db.delete(productImages).where(eq(productImages.productId, id));
    const rowsBefore = (await test.db.select().from(productImages)).length;
    const file = (await readdir(migrationsFolder)).find((name) => name.endsWith("_product-gallery-data.sql"));
    const migration = await readFile(path.join(migrationsFolder, file!), "utf8");
    await test.db.execute(sql.raw(migration));
    await test.db.execute(sql.raw(migration));
    expect(await gallery(id)).toEqual([expect.objectContaining({ image, position: 1 })]);
    expect(await test.db.select().from(productImages)).toHaveLength(rowsBefore + 1);
  });

  it("adds, reorders and removes pictures: the first is always the main one, on the shop, the cart and the product page", async () => {
    const first = picture();
    const second = picture();
    const { id, slug } = await newProduct(first);
    const cardImage = async () => (await listShopProducts(test.db)).find((product) => product.id === id)?.image;
    const cartImage = async () => (await priceCartLines(test.db, [{ productId: id, variantId: null, quantity: 1 }])).lines[0]?.image;
    expect(await findProductBySlug(test.db, slug)).toMatchObject({ image: first, images: [{ image: first, alt: "" }] });

    let before = await generation();
    expect(await addProductImage(test.db, admin, id, { image: second, alt: "  Etiqueta de la botella " })).toEqual({ ok: true, id });
    expect(await generation()).toBe(before + 1);
    expect((await gallery(id)).map((row) => [row.image, row.alt, row.position])).toEqual([
      [first, "", 1],
      [second, "Etiqueta de la botella", 2],
    ]);
    expect((await findProductBySlug(test.db, slug))?.images).toEqual([
      { image: first, alt: "" },
      { image: second, alt: "Etiqueta de la botella" },
    ]);
    const [added] = await galleryActions(id);
    expect(added).toMatchObject({ action: "product_image.add", actorId: admin.id, after: { productId: id, image: second, position: 2 } });

    // The second one becomes the main picture everywhere a single picture is shown.
    const secondId = (await gallery(id))[1]!.id;
    before = await generation();
    expect(await moveProductImage(test.db, admin, id, secondId, 1)).toEqual({ ok: true, id });
    expect(await generation()).toBe(before + 1);
    expect((await gallery(id)).map((row) => [row.image, row.position])).toEqual([
      [second, 1],
      [first, 2],
    ]);
    expect(await mainImage(id)).toBe(second);
    expect(await cardImage()).toBe(second);
    expect(await cartImage()).toBe(second);
    expect(await findProductBySlug(test.db, slug)).toMatchObject({ image: second, images: [{ image: second }, { image: first }] });

    // Taking the main picture out makes the next one main; an empty gallery leaves no picture.
    expect(await removeProductImage(test.db, admin, id, secondId)).toEqual({ ok: true, id });
    expect((await gallery(id)).map((row) => [row.image, row.position])).toEqual([[first, 1]]);
    expect(await mainImage(id)).toBe(first);
    expect(await cardImage()).toBe(first);
    await removeProductImage(test.db, admin, id, (await gallery(id))[0]!.id);
    expect(await mainImage(id)).toBeNull();
    expect((await findProductBySlug(test.db, slug))?.images).toEqual([]);
    expect((await galleryActions(id)).map((row) => row.action)).toEqual([
      "product_image.add",
      "product_image.move",
      "product_image.remove",
      "product_image.remove",
    ]);
  });

  it("changes nothing twice when a form is posted again: same picture, same move, a removed picture, the same text", async () => {
    const { id } = await newProduct();
    const extra = picture();
    await addProductImage(test.db, admin, id, { image: extra, alt: "" });
    const extraId = (await gallery(id))[1]!.id;
    const before = await generation();
    const actions = (await galleryActions(id)).length;

    expect(await addProductImage(test.db, admin, id, { image: extra, alt: "" })).toEqual({ ok: true, id });
    await moveProductImage(test.db, admin, id, extraId, 1);
    expect(await moveProductImage(test.db, admin, id, extraId, 1)).toEqual({ ok: true, id });
    await updateProductImageAlt(test.db, admin, id, extraId, "Pack de seis");
    expect(await updateProductImageAlt(test.db, admin, id, extraId, "Pack de seis ")).toEqual({ ok: true, id });
    await removeProductImage(test.db, admin, id, extraId);
    expect(await removeProductImage(test.db, admin, id, extraId)).toEqual({ ok: true, id });

    expect(await gallery(id)).toHaveLength(1);
    expect((await galleryActions(id)).map((row) => row.action).slice(actions)).toEqual(["product_image.move", "product_image.alt", "product_image.remove"]);
    expect(await generation()).toBe(before + 3);
  });

  it("moves a picture to the place it names, keeping the others in order, and clamps past the end", async () => {
    const images = [picture(), picture(), picture(), picture()];
    const { id } = await newProduct(images[0]);
    for (const image of images.slice(1)) await addProductImage(test.db, admin, id, { image, alt: "" });
    const ids = (await gallery(id)).map((row) => row.id);
    await moveProductImage(test.db, admin, id, ids[3]!, 2);
    expect((await gallery(id)).map((row) => row.image)).toEqual([images[0], images[3], images[1], images[2]]);
    await moveProductImage(test.db, admin, id, ids[0]!, 99);
    expect((await gallery(id)).map((row) => [row.image, row.position])).toEqual([
      [images[3], 1],
      [images[1], 2],
      [images[2], 3],
      [images[0], 4],
    ]);
    expect(await mainImage(id)).toBe(images[3]);
  });

  it(`refuses a picture past ${MAX_PRODUCT_IMAGES}, a bad text alternative, and pictures or products that are not there`, async () => {
    const { id } = await newProduct();
    const other = await newProduct();
    for (let count = 1; count < MAX_PRODUCT_IMAGES; count += 1) await addProductImage(test.db, admin, id, { image: picture(), alt: "" });
    const actions = (await galleryActions(id)).length;
    const before = await generation();
    expect(await addProductImage(test.db, admin, id, { image: picture(), alt: "" })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { imageFile: expect.stringContaining(`${MAX_PRODUCT_IMAGES} imágenes, el máximo`) },
    });
    expect(await gallery(id)).toHaveLength(MAX_PRODUCT_IMAGES);

    const firstId = (await gallery(id))[0]!.id;
    expect(await updateProductImageAlt(test.db, admin, id, firstId, "x".repeat(201))).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { alt: "Escribe un texto alternativo de hasta 200 caracteres" },
    });
    expect(await updateProductImageAlt(test.db, admin, id, firstId, "Botella\u0000")).toMatchObject({ ok: false, fieldErrors: { alt: expect.any(String) } });
    expect(await moveProductImage(test.db, admin, other.id, firstId, 1)).toEqual({ ok: false, reason: "not_found" });
    expect(await updateProductImageAlt(test.db, admin, other.id, firstId, "Otra")).toEqual({ ok: false, reason: "not_found" });
    expect(await addProductImage(test.db, admin, 2_000_000, { image: picture(), alt: "" })).toEqual({ ok: false, reason: "not_found" });
    // The other product's gallery is not this product's to remove from: nothing happens to it.
    expect(await removeProductImage(test.db, admin, other.id, firstId)).toEqual({ ok: true, id: other.id });

    expect(await gallery(id)).toHaveLength(MAX_PRODUCT_IMAGES);
    expect(await gallery(other.id)).toHaveLength(1);
    expect((await gallery(id))[0]?.alt).toBe("");
    expect(await galleryActions(id)).toHaveLength(actions);
    expect(await generation()).toBe(before);
  });
});
