CREATE TABLE "whatsapp_repeat_quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_wamid" text NOT NULL,
	"phone" text NOT NULL,
	"user_id" text NOT NULL,
	"source_order_id" uuid NOT NULL,
	"lines" jsonb NOT NULL,
	"left_out" jsonb NOT NULL,
	"subtotal_cents" integer NOT NULL,
	"garantia_cents" integer NOT NULL,
	"credit_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"pay_cents" integer NOT NULL,
	"district_id" integer NOT NULL,
	"district_name" text NOT NULL,
	"address" text NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"delivery_notes" text,
	"delivery_date" date NOT NULL,
	"delivery_window" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"order_id" uuid,
	"order_number" text,
	"closed_at" timestamp with time zone,
	CONSTRAINT "whatsapp_repeat_quotes_request_wamid_unique" UNIQUE("request_wamid")
);
--> statement-breakpoint
DROP INDEX "whatsapp_inbound_messages_from_idx";--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD COLUMN "reply_id" text;--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD COLUMN "answer_state" text;--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD COLUMN "answer_next_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD COLUMN "answer_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD COLUMN "answer_claim_token" uuid;--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD COLUMN "answer_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD COLUMN "answer_error" text;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD COLUMN "interactive" jsonb;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD COLUMN "staff_user_id" text;--> statement-breakpoint
ALTER TABLE "whatsapp_repeat_quotes" ADD CONSTRAINT "whatsapp_repeat_quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_repeat_quotes_phone_idx" ON "whatsapp_repeat_quotes" USING btree ("phone","created_at");--> statement-breakpoint
CREATE INDEX "whatsapp_repeat_quotes_user_idx" ON "whatsapp_repeat_quotes" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_staff_user_id_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_inbound_messages_answer_idx" ON "whatsapp_inbound_messages" USING btree ("answer_state","answer_next_at");--> statement-breakpoint
CREATE INDEX "whatsapp_inbound_messages_from_idx" ON "whatsapp_inbound_messages" USING btree ("from_id","sent_at");