ALTER TABLE "refunds" DROP CONSTRAINT "refunds_provider_charge_unique";--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "operaciones_refund_limit_cents" integer DEFAULT 20000 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "request_key" text;--> statement-breakpoint
UPDATE "refunds" SET "request_key" = 'charge:' || "provider" || ':' || "charge_reference";--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "request_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_pending_per_charge" ON "refunds" USING btree ("provider","charge_reference") WHERE "refunds"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_request_key_unique" UNIQUE("request_key");