CREATE TABLE "garantia_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" text,
	"customer_email" text NOT NULL,
	"units" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"delivery_id" uuid,
	"outcome" text,
	"status" text NOT NULL,
	"refund_id" uuid,
	"source_key" text NOT NULL,
	"recorded_by" text,
	"note" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "garantia_entries_source_key_unique" UNIQUE("source_key"),
	CONSTRAINT "garantia_entries_units_positive" CHECK ("garantia_entries"."units" > 0 and "garantia_entries"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "garantia_preferences" (
	"user_id" text PRIMARY KEY NOT NULL,
	"preference" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reorder_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_key" text NOT NULL,
	"user_id" text,
	"email" text NOT NULL,
	"last_order_id" uuid NOT NULL,
	"interval_days" integer NOT NULL,
	"runs_out_on" date NOT NULL,
	"channel" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reorder_reminders_one_per_interval" UNIQUE("customer_key","last_order_id")
);
--> statement-breakpoint
ALTER TABLE "bidon_movements" ALTER COLUMN "delivery_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bidon_movements" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "garantia_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "reorder_reminders_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "garantia_comprobante_mode" text DEFAULT 'inafecto' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "garantia_units" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "garantia_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "garantia_basis" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "garantia_on_comprobante" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "garantia_credit_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "garantia_entry_id" uuid;--> statement-breakpoint
ALTER TABLE "bidon_movements" ADD COLUMN "source_key" text;--> statement-breakpoint
ALTER TABLE "bidon_movements" ADD COLUMN "recorded_by" text;--> statement-breakpoint
ALTER TABLE "garantia_entries" ADD CONSTRAINT "garantia_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garantia_entries" ADD CONSTRAINT "garantia_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garantia_entries" ADD CONSTRAINT "garantia_entries_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garantia_entries" ADD CONSTRAINT "garantia_entries_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garantia_preferences" ADD CONSTRAINT "garantia_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reorder_reminders" ADD CONSTRAINT "reorder_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reorder_reminders" ADD CONSTRAINT "reorder_reminders_last_order_id_orders_id_fk" FOREIGN KEY ("last_order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "garantia_entries_email_idx" ON "garantia_entries" USING btree ("customer_email");--> statement-breakpoint
CREATE INDEX "garantia_entries_user_idx" ON "garantia_entries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "garantia_entries_order_idx" ON "garantia_entries" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "garantia_entries_due_idx" ON "garantia_entries" USING btree ("next_attempt_at") WHERE "garantia_entries"."status" in ('pending', 'refunding');--> statement-breakpoint
CREATE INDEX "reorder_reminders_sent_idx" ON "reorder_reminders" USING btree ("sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_live_note_per_garantia_release" ON "invoices" USING btree ("garantia_entry_id") WHERE "invoices"."garantia_entry_id" is not null and "invoices"."electronic_status" <> 'rejected';--> statement-breakpoint
ALTER TABLE "bidon_movements" ADD CONSTRAINT "bidon_movements_source_key_unique" UNIQUE("source_key");--> statement-breakpoint
ALTER TABLE "bidon_movements" ADD CONSTRAINT "bidon_movements_delivery_or_staff" CHECK ("bidon_movements"."delivery_id" is not null or "bidon_movements"."source_key" is not null);