import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A presentation of the water (spec §3 Product). Prices are integer céntimos, IGV included. */
export const products = pgTable("products", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  image: text("image"),
  /** Price when the product has no variants; null when only its variants carry prices. */
  priceCents: integer("price_cents"),
  sku: text("sku"),
  /** Spec's `order`: ascending sort key, products without one come last. */
  sortOrder: integer("sort_order"),
  /** Shown in the info table; the spec's fixed texts are the fallback when null. */
  weightLabel: text("weight_label"),
  dimensionsLabel: text("dimensions_label"),
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
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("product_variants_product_idx").on(table.productId)],
);
