CREATE TABLE "whatsapp_consent_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"granted" boolean NOT NULL,
	"source" text NOT NULL,
	"text_shown" text NOT NULL,
	"text_version" text NOT NULL,
	"user_id" text,
	"email" text,
	"order_id" uuid,
	"client_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_contacts" (
	"phone" text PRIMARY KEY NOT NULL,
	"last_inbound_at" timestamp with time zone,
	"profile_name" text,
	"unreachable_at" timestamp with time zone,
	"unreachable_reason" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_inbound_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wamid" text NOT NULL,
	"from_id" text NOT NULL,
	"profile_name" text,
	"message_type" text NOT NULL,
	"body" text NOT NULL,
	"intent" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"attended_at" timestamp with time zone,
	"attended_by" text,
	CONSTRAINT "whatsapp_inbound_messages_wamid_unique" UNIQUE("wamid")
);
--> statement-breakpoint
CREATE TABLE "whatsapp_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dedupe_key" text NOT NULL,
	"kind" text NOT NULL,
	"template_name" text,
	"language_code" text,
	"parameters" jsonb,
	"rendered_text" text NOT NULL,
	"to_phone" text NOT NULL,
	"order_id" uuid,
	"subscription_id" uuid,
	"user_id" text,
	"customer_email" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"claim_token" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"wamid" text,
	"accepted_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"dead_at" timestamp with time zone,
	"error_code" integer,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "whatsapp_messages_dedupe_key_unique" UNIQUE("dedupe_key"),
	CONSTRAINT "whatsapp_messages_wamid_unique" UNIQUE("wamid")
);
--> statement-breakpoint
CREATE TABLE "whatsapp_status_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"wamid" text NOT NULL,
	"status" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"error_code" integer,
	"error_title" text,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "whatsapp_status_events_once" UNIQUE("wamid","status")
);
--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD CONSTRAINT "whatsapp_inbound_messages_attended_by_users_id_fk" FOREIGN KEY ("attended_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_consent_events_phone_idx" ON "whatsapp_consent_events" USING btree ("phone","id");--> statement-breakpoint
CREATE INDEX "whatsapp_consent_events_email_idx" ON "whatsapp_consent_events" USING btree ("email");--> statement-breakpoint
CREATE INDEX "whatsapp_consent_events_user_idx" ON "whatsapp_consent_events" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "whatsapp_inbound_messages_received_idx" ON "whatsapp_inbound_messages" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "whatsapp_inbound_messages_from_idx" ON "whatsapp_inbound_messages" USING btree ("from_id");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_due_idx" ON "whatsapp_messages" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_order_idx" ON "whatsapp_messages" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_phone_idx" ON "whatsapp_messages" USING btree ("to_phone");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_email_idx" ON "whatsapp_messages" USING btree ("customer_email");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_user_idx" ON "whatsapp_messages" USING btree ("user_id");