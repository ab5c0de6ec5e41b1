ALTER TABLE "route_optimisations" ADD COLUMN "status" text DEFAULT 'applied' NOT NULL;--> statement-breakpoint
ALTER TABLE "route_optimisations" ADD COLUMN "snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "route_optimisations" ADD COLUMN "apply_key" text;--> statement-breakpoint
ALTER TABLE "route_optimisations" ADD COLUMN "applied_by" text;--> statement-breakpoint
ALTER TABLE "route_optimisations" ADD COLUMN "applied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "route_optimisations" ADD CONSTRAINT "route_optimisations_apply_key_unique" UNIQUE("apply_key");