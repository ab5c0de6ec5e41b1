-- Decision 0064: people who never bought are found in /admin/clientes by the beginning of their e-mail
-- (or a complaint sheet's document), each source from its own index; a sheet whose consumer was
-- anonymised is marked (the sheet itself stays as filed: append-only legal record).
CREATE TABLE "complaint_anonymisations" (
	"complaint_id" uuid PRIMARY KEY NOT NULL,
	"anonymised_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "complaint_anonymisations" ADD CONSTRAINT "complaint_anonymisations_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "abandoned_carts_email_prefix_idx" ON "abandoned_carts" USING btree ("email" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "contact_messages_email_prefix_idx" ON "contact_messages" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "complaints_email_prefix_idx" ON "complaints" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "complaints_document_idx" ON "complaints" USING btree ("document_number");--> statement-breakpoint
CREATE INDEX "promotional_consent_events_email_prefix_idx" ON "promotional_consent_events" USING btree ("email" text_pattern_ops);