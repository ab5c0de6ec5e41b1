CREATE TABLE "provider_erasures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"object_kind" text NOT NULL,
	"reference" text NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "provider_erasures_object_unique" UNIQUE("provider","object_kind","reference")
);
--> statement-breakpoint
CREATE INDEX "provider_erasures_status_next_attempt_idx" ON "provider_erasures" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "provider_erasures_user_idx" ON "provider_erasures" USING btree ("user_id");