ALTER TABLE "districts" ADD COLUMN "door_payment" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "door_payment_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "door_payment_max_cents" integer DEFAULT 50000 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "door_payment_customers" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "door_yape_number" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "pays_with_cents" integer;