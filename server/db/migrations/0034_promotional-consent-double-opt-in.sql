-- Issue 24, promotional consent by double opt-in (docs/decisions/0072). Hand-written part at the end:
-- the consent events' append-only trigger now also keeps the new columns (how, the text shown, the
-- confirmed ask) unchanged in the one rewrite it admits (anonymisation, decision 0051).
CREATE TABLE "promotional_consent_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"source" text NOT NULL,
	"text_version" text NOT NULL,
	"consent_text" text NOT NULL,
	"user_id" text,
	"client_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "promotional_consent_requests_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "promotional_consent_events" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "promotional_consent_events" ADD COLUMN "consent_text" text;--> statement-breakpoint
ALTER TABLE "promotional_consent_events" ADD COLUMN "request_id" bigint;--> statement-breakpoint
CREATE INDEX "promotional_consent_requests_email_idx" ON "promotional_consent_requests" USING btree ("email","created_at");--> statement-breakpoint
ALTER TABLE "promotional_consent_events" ADD CONSTRAINT "promotional_consent_events_request_id_promotional_consent_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."promotional_consent_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "promotional_consent_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE'
		AND NEW.email LIKE '%@anonimizado.invalid'
		AND NEW.client_address IS NULL
		AND NEW.user_agent IS NULL
		AND NEW.user_id IS NULL
		AND NEW.id = OLD.id
		AND NEW.granted = OLD.granted
		AND NEW.source = OLD.source
		AND NEW.text_version = OLD.text_version
		AND NEW.created_at = OLD.created_at
		AND NEW.method IS NOT DISTINCT FROM OLD.method
		AND NEW.consent_text IS NOT DISTINCT FROM OLD.consent_text
		AND NEW.request_id IS NOT DISTINCT FROM OLD.request_id THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'promotional_consent_events is append-only';
END;
$$;
