import { boolean, index, integer, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";

/** A presentation of the water (spec §3 Product). Prices are integer céntimos, IGV included. */
export const products = pgTable("products", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  /** The gallery's first picture (`product_images` position 1), kept in step by every gallery write (decision 0057). */
  image: text("image"),
  /** Price when the product has no variants; null when only its variants carry prices. */
  priceCents: integer("price_cents"),
  sku: text("sku"),
  /** Spec's `order`: ascending sort key, products without one come last. */
  sortOrder: integer("sort_order"),
  /** Shown in the info table; the spec's fixed texts are the fallback when null. */
  weightLabel: text("weight_label"),
  dimensionsLabel: text("dimensions_label"),
  /**
   * The garantía per returnable bidón of this product (decision 0075), in céntimos; 0 = none. Charged
   * for the bidones a customer does not hold yet, returned when they come back.
   */
  garantiaCents: integer("garantia_cents").notNull().default(0),
  active: boolean("active").notNull().default(true),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Spec's products_variants: pack sizes of a product; `active` is the spec's boolean status. */
export const productVariants = pgTable(
  "product_variants",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    priceCents: integer("price_cents").notNull(),
    sku: text("sku"),
    /** Bottles in the pack ("Pack x 12" → 12); null when staff have not said. */
    packSize: integer("pack_size"),
    /** Ascending within the product, variants without one last (issue 11 reorder). */
    sortOrder: integer("sort_order"),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("product_variants_product_idx").on(table.productId)],
);

/**
 * Slugs a product was once published under (issue 11): shared links and search results keep
 * working, answered by a 301 to the product's current slug. A slug here is never given to
 * another product.
 */
export const productSlugRedirects = pgTable("product_slug_redirects", {
  slug: text("slug").primaryKey(),
  productId: integer("product_id")
    .notNull()
    .references(() => products.id),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A product's gallery (issue 11, decision 0057): pictures in order, position 1 the main one, at most
 * MAX_PRODUCT_IMAGES. `image` is a stored upload's path as the media domain answers it (content
 * hashed, so a picture is in a gallery once). `alt` is empty when staff gave none.
 */
export const productImages = pgTable(
  "product_images",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    image: text("image").notNull(),
    alt: text("alt").notNull().default(""),
    position: integer("position").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The unique key's index (product first) also serves reading a gallery; it holds 8 rows at most.
  (table) => [unique("product_images_product_image_unique").on(table.productId, table.image)],
);
