CREATE TABLE "staff_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text NOT NULL,
	"actor_role" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"client_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "staff_actions_actor_idx" ON "staff_actions" USING btree ("actor_id","created_at");--> statement-breakpoint
CREATE INDEX "staff_actions_entity_idx" ON "staff_actions" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "staff_actions_created_idx" ON "staff_actions" USING btree ("created_at");--> statement-breakpoint
-- decisions.md: staff actions are audited append-only; the database itself refuses to rewrite them.
CREATE FUNCTION "staff_actions_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'staff_actions is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "staff_actions_no_update_or_delete" BEFORE UPDATE OR DELETE ON "staff_actions"
	FOR EACH STATEMENT EXECUTE FUNCTION "staff_actions_append_only"();
