CREATE TABLE "complaint_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"complaint_id" uuid NOT NULL,
	"answer" text NOT NULL,
	"answered_by_id" text NOT NULL,
	"answered_by_email" text NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	CONSTRAINT "complaint_answers_complaint_id_unique" UNIQUE("complaint_id")
);
--> statement-breakpoint
CREATE TABLE "complaint_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "complaints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"year" integer NOT NULL,
	"number" integer NOT NULL,
	"sheet_number" text NOT NULL,
	"access_token_hash" text NOT NULL,
	"filed_at" timestamp with time zone NOT NULL,
	"filed_on" date NOT NULL,
	"issuer_legal_name" text NOT NULL,
	"issuer_ruc" text NOT NULL,
	"issuer_address" text NOT NULL,
	"consumer_names" text NOT NULL,
	"consumer_surnames" text NOT NULL,
	"document_type" text NOT NULL,
	"document_number" text NOT NULL,
	"address" text NOT NULL,
	"phone" text,
	"email" text NOT NULL,
	"is_minor" boolean DEFAULT false NOT NULL,
	"guardian_name" text,
	"guardian_document_type" text,
	"guardian_document_number" text,
	"good_type" text NOT NULL,
	"claimed_amount_cents" integer,
	"good_description" text NOT NULL,
	"order_number" text,
	"order_id" uuid,
	"kind" text NOT NULL,
	"detail" text NOT NULL,
	"consumer_request" text NOT NULL,
	CONSTRAINT "complaints_access_token_hash_unique" UNIQUE("access_token_hash"),
	CONSTRAINT "complaints_year_number_unique" UNIQUE("year","number")
);
--> statement-breakpoint
ALTER TABLE "complaint_answers" ADD CONSTRAINT "complaint_answers_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "complaints_filed_idx" ON "complaints" USING btree ("filed_at");--> statement-breakpoint
-- decisions.md: complaints-book sheets are never edited; answers are appended. The database itself refuses to rewrite either.
CREATE FUNCTION "complaints_book_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "complaints_no_update_or_delete" BEFORE UPDATE OR DELETE ON "complaints"
	FOR EACH STATEMENT EXECUTE FUNCTION "complaints_book_append_only"();--> statement-breakpoint
CREATE TRIGGER "complaint_answers_no_update_or_delete" BEFORE UPDATE OR DELETE ON "complaint_answers"
	FOR EACH STATEMENT EXECUTE FUNCTION "complaints_book_append_only"();
