CREATE TABLE "legal_text_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"content_html" text NOT NULL,
	"effective_on" date NOT NULL,
	"saved_by" text NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cache_generations" (
	"scope" text PRIMARY KEY NOT NULL,
	"generation" bigint NOT NULL,
	"reason" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "legal_text_versions_slug_idx" ON "legal_text_versions" USING btree ("slug","id");--> statement-breakpoint
-- Issue 11: every saved version of a legal text is kept; the database itself refuses to rewrite or remove one.
CREATE FUNCTION "legal_text_versions_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'legal_text_versions is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "legal_text_versions_no_update_or_delete" BEFORE UPDATE OR DELETE ON "legal_text_versions"
	FOR EACH STATEMENT EXECUTE FUNCTION "legal_text_versions_append_only"();
--> statement-breakpoint
-- Texts published before versions were kept become each text's first version.
INSERT INTO "legal_text_versions" ("slug", "title", "content_html", "effective_on", "saved_by")
	SELECT "slug", "title", "content_html", "updated_on", 'carga inicial' FROM "legal_texts";
