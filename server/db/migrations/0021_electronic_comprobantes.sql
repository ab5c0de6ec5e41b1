ALTER TABLE "invoices" DROP CONSTRAINT "invoices_order_id_unique";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "related_invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credit_note_type" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credit_note_reason" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "electronic_status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "send_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "next_send_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "send_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "send_claim_token" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "last_send_error" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "sunat_code" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "sunat_description" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "pdf_url" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "xml_url" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cdr_url" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "qr_text" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_related_invoice_id_invoices_id_fk" FOREIGN KEY ("related_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_live_sale_per_order" ON "invoices" USING btree ("order_id") WHERE "invoices"."document_type" in ('boleta', 'factura') and "invoices"."electronic_status" <> 'rejected';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_live_note_per_refund" ON "invoices" USING btree ("refund_id") WHERE "invoices"."refund_id" is not null and "invoices"."electronic_status" <> 'rejected';--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoices_electronic_due_idx" ON "invoices" USING btree ("electronic_status","next_send_at");