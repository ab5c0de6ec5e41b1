CREATE TABLE "promotional_consent_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"granted" boolean NOT NULL,
	"source" text NOT NULL,
	"text_version" text NOT NULL,
	"user_id" text,
	"client_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "promotional_consent_events_email_idx" ON "promotional_consent_events" USING btree ("email","id");--> statement-breakpoint
-- Issue 12: consent and revocation are evidence (Ley 29733); the database refuses to rewrite them.
CREATE FUNCTION "promotional_consent_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'promotional_consent_events is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "promotional_consent_events_no_update_or_delete" BEFORE UPDATE OR DELETE ON "promotional_consent_events"
	FOR EACH STATEMENT EXECUTE FUNCTION "promotional_consent_events_append_only"();
