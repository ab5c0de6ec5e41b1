ALTER TABLE "payments" ADD COLUMN "door_phone_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "driver_confirmation_receipts" ADD COLUMN "phone_time_adjusted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "driver_confirmation_receipts" ADD COLUMN "tap_digest" text;