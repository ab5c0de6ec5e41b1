-- Issue 11, customers: Ley 29733 anonymisation (docs/decisions/0051-customer-data-requests.md).
-- Consent events stay append-only, with one narrow exception: the row may lose who it was about
-- (the address becomes a placeholder of the reserved .invalid domain; IP, user agent and account
-- are cleared) while what was decided, when, from where in the shop and under which text stays.
DROP TRIGGER "promotional_consent_events_no_update_or_delete" ON "promotional_consent_events";--> statement-breakpoint
DROP FUNCTION "promotional_consent_events_append_only"();--> statement-breakpoint
CREATE FUNCTION "promotional_consent_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
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
		AND NEW.created_at = OLD.created_at THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'promotional_consent_events is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "promotional_consent_events_no_update_or_delete" BEFORE UPDATE OR DELETE ON "promotional_consent_events"
	FOR EACH ROW EXECUTE FUNCTION "promotional_consent_events_append_only"();
