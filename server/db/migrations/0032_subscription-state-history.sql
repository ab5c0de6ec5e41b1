CREATE TABLE "subscription_state_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscription_state_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"subscription_id" uuid NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"frequency" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"previous_status" text,
	"previous_frequency" text,
	"previous_amount_cents" integer
);
--> statement-breakpoint
ALTER TABLE "subscription_state_changes" ADD CONSTRAINT "subscription_state_changes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_state_changes_subscription_idx" ON "subscription_state_changes" USING btree ("subscription_id","changed_at");--> statement-breakpoint
-- Decision 0067: every change of a subscription's status, plan or price per period is recorded by the
-- database itself, in the statement that makes it, whichever path makes it, with the state it left.
-- The instant is the shop's clock: the row's created_at on insert, its updated_at on update (every
-- path stamps it with its `now`).
CREATE FUNCTION "subscriptions_record_state"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"stamp" timestamptz;
	"latest" timestamptz;
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "subscription_state_changes" ("subscription_id", "changed_at", "status", "frequency", "amount_cents")
		VALUES (NEW."id", NEW."created_at", NEW."status", NEW."frequency", NEW."amount_cents");
	ELSIF (NEW."status", NEW."frequency", NEW."amount_cents") IS DISTINCT FROM (OLD."status", OLD."frequency", OLD."amount_cents") THEN
		-- Changes of one subscription are serialised by its row lock; a clock read before the lock
		-- was taken (another process, a retried transaction) never puts a change before the previous one.
		SELECT max("changed_at") INTO "latest" FROM "subscription_state_changes" WHERE "subscription_id" = NEW."id";
		"stamp" := greatest(NEW."updated_at", "latest");
		INSERT INTO "subscription_state_changes"
			("subscription_id", "changed_at", "status", "frequency", "amount_cents", "previous_status", "previous_frequency", "previous_amount_cents")
		VALUES (NEW."id", "stamp", NEW."status", NEW."frequency", NEW."amount_cents", OLD."status", OLD."frequency", OLD."amount_cents");
	END IF;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "subscriptions_state_history" AFTER INSERT OR UPDATE OF "status", "frequency", "amount_cents" ON "subscriptions"
	FOR EACH ROW EXECUTE FUNCTION "subscriptions_record_state"();--> statement-breakpoint
-- Decision 0067: the history of the subscriptions that exist now, rebuilt from what was kept: waiting
-- for payment from created_at, then the status events of the customer's history (a subscription
-- started without an activation event is active from its start date), then the present status at
-- updated_at where it differs from the last one rebuilt. Plan and price are today's: past ones were
-- never stored.
WITH "rebuilt" AS (
	SELECT s."id" AS "subscription_id", s."created_at" AS "changed_at", 0::bigint AS "step", 'pending_payment' AS "status"
	FROM "subscriptions" s
	UNION ALL
	SELECT s."id", greatest(s."created_at", s."start_date"::timestamp AT TIME ZONE 'America/Lima'), 1, 'active'
	FROM "subscriptions" s
	WHERE s."start_date" IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM "subscription_events" e WHERE e."subscription_id" = s."id" AND e."kind" = 'activated')
	UNION ALL
	SELECT e."subscription_id", e."created_at", 1 + e."id",
		CASE e."kind" WHEN 'paused' THEN 'paused' WHEN 'past_due' THEN 'past_due' WHEN 'cancelled' THEN 'cancelled' ELSE 'active' END
	FROM "subscription_events" e
	WHERE e."kind" IN ('activated', 'resumed', 'paused', 'past_due', 'cancelled')
), "kept" AS (
	SELECT "subscription_id", "changed_at", "step", "status"
	FROM (
		SELECT r.*, lag(r."status") OVER (PARTITION BY r."subscription_id" ORDER BY r."changed_at", r."step") AS "previous_status"
		FROM "rebuilt" r
	) AS "steps"
	WHERE "previous_status" IS DISTINCT FROM "status"
), "last" AS (
	SELECT DISTINCT ON ("subscription_id") "subscription_id", "changed_at", "status"
	FROM "kept"
	ORDER BY "subscription_id", "changed_at" DESC, "step" DESC
), "history" AS (
	SELECT k."subscription_id", k."changed_at", k."step", k."status", s."frequency", s."amount_cents"
	FROM "kept" k JOIN "subscriptions" s ON s."id" = k."subscription_id"
	UNION ALL
	SELECT s."id", greatest(s."updated_at", l."changed_at"), 9223372036854775807, s."status", s."frequency", s."amount_cents"
	FROM "subscriptions" s JOIN "last" l ON l."subscription_id" = s."id"
	WHERE l."status" <> s."status"
)
INSERT INTO "subscription_state_changes"
	("subscription_id", "changed_at", "status", "frequency", "amount_cents", "previous_status", "previous_frequency", "previous_amount_cents")
SELECT "subscription_id", "changed_at", "status", "frequency", "amount_cents",
	lag("status") OVER "earlier", lag("frequency") OVER "earlier", lag("amount_cents") OVER "earlier"
FROM "history"
WINDOW "earlier" AS (PARTITION BY "subscription_id" ORDER BY "changed_at", "step")
ORDER BY "subscription_id", "changed_at", "step";
