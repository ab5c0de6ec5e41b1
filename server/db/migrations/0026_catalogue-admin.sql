CREATE TABLE "product_slug_redirects" (
	"slug" text PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "pack_size" integer;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "sort_order" integer;--> statement-breakpoint
ALTER TABLE "subscription_items" ADD COLUMN "pending_unit_price_cents" integer;--> statement-breakpoint
ALTER TABLE "subscription_items" ADD COLUMN "pending_from_period" integer;--> statement-breakpoint
ALTER TABLE "product_slug_redirects" ADD CONSTRAINT "product_slug_redirects_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;