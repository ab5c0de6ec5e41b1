CREATE TABLE "driver_cash_handovers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"driver_id" text NOT NULL,
	"work_date" date NOT NULL,
	"revision" integer NOT NULL,
	"counted_cents" integer NOT NULL,
	"expected_cents" integer NOT NULL,
	"note" text,
	"recorded_by_id" text NOT NULL,
	"recorded_by_email" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "driver_cash_handovers_revision_unique" UNIQUE("driver_id","work_date","revision"),
	CONSTRAINT "driver_cash_handovers_counted_not_negative" CHECK ("driver_cash_handovers"."counted_cents" >= 0),
	CONSTRAINT "driver_cash_handovers_revision_positive" CHECK ("driver_cash_handovers"."revision" >= 1)
);
--> statement-breakpoint
ALTER TABLE "driver_cash_handovers" ADD CONSTRAINT "driver_cash_handovers_driver_id_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_door_collections_idx" ON "payments" USING btree ("settled_at") WHERE "payments"."collected_at_door_by" is not null;--> statement-breakpoint
-- Decision 0060: a rendición is corrected by a new revision, never rewritten; the database itself refuses it.
CREATE FUNCTION "driver_cash_handovers_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'driver_cash_handovers is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "driver_cash_handovers_no_update_or_delete" BEFORE UPDATE OR DELETE ON "driver_cash_handovers"
	FOR EACH STATEMENT EXECUTE FUNCTION "driver_cash_handovers_append_only"();
