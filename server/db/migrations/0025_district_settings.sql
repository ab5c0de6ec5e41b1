ALTER TABLE "districts" ADD COLUMN "cutoff_time" text;--> statement-breakpoint
ALTER TABLE "districts" ADD COLUMN "staff_notes" text;