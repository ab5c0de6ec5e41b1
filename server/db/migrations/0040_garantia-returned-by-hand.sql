ALTER TABLE "garantia_entries" ADD COLUMN "settled_by" text;--> statement-breakpoint
ALTER TABLE "garantia_entries" ADD COLUMN "settled_note" text;--> statement-breakpoint
ALTER TABLE "garantia_entries" ADD COLUMN "settled_at" timestamp with time zone;