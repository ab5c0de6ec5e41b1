CREATE TABLE "order_notes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"author_id" text NOT NULL,
	"author_name" text NOT NULL,
	"author_email" text NOT NULL,
	"body" text NOT NULL,
	"request_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_notes_request_key_unique" UNIQUE("request_key")
);
--> statement-breakpoint
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_notes_order_idx" ON "order_notes" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_email_prefix_idx" ON "orders" USING btree (lower("customer_email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_first_name_prefix_idx" ON "orders" USING btree (lower("customer_first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_last_name_prefix_idx" ON "orders" USING btree (lower("customer_last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_phone_digits_idx" ON "orders" USING btree (regexp_replace("customer_phone", '[^0-9]', '', 'g'));--> statement-breakpoint
CREATE INDEX "orders_document_idx" ON "orders" USING btree ("document_number");--> statement-breakpoint
CREATE INDEX "orders_ruc_idx" ON "orders" USING btree ("ruc");--> statement-breakpoint
CREATE INDEX "orders_name_words_idx" ON "orders" USING gin (string_to_array(lower("customer_first_name" || ' ' || "customer_last_name"), ' ')) WITH (fastupdate=false);--> statement-breakpoint
-- Issue 10: internal notes are append-only; the database itself refuses to rewrite or remove them.
CREATE FUNCTION "order_notes_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'order_notes is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "order_notes_no_update_or_delete" BEFORE UPDATE OR DELETE ON "order_notes"
	FOR EACH STATEMENT EXECUTE FUNCTION "order_notes_append_only"();
