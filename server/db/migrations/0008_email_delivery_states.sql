DROP INDEX "outbox_emails_pending_idx";--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "claim_token" uuid;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "dead_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "outbox_emails_due_idx" ON "outbox_emails" USING btree ("status","next_attempt_at");--> statement-breakpoint
-- Existing rows: sent ones are done; the ones the old sender gave up on (five failed attempts)
-- become dead letters staff can see and retry; the rest are due from when they were queued.
UPDATE "outbox_emails" SET "status" = CASE WHEN "sent_at" IS NOT NULL THEN 'sent' WHEN "attempts" >= 5 THEN 'dead' ELSE 'pending' END, "next_attempt_at" = "created_at", "dead_at" = CASE WHEN "sent_at" IS NULL AND "attempts" >= 5 THEN now() END;
