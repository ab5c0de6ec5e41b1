ALTER TABLE "site_settings" ADD COLUMN "operaciones_may_cancel_any_amount" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charge_claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approved_by" text;