CREATE TABLE "whatsapp_opt_in_asks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone" text NOT NULL,
	"source" text NOT NULL,
	"text_shown" text NOT NULL,
	"text_version" text NOT NULL,
	"user_id" text,
	"email" text,
	"order_id" uuid,
	"client_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "phone_proofs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"user_id" text,
	"order_id" uuid,
	"method" text NOT NULL,
	"staff_user_id" text,
	"evidence" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "whatsapp_opt_in_asks_phone_idx" ON "whatsapp_opt_in_asks" USING btree ("phone","created_at");--> statement-breakpoint
CREATE INDEX "phone_proofs_phone_idx" ON "phone_proofs" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "phone_proofs_user_idx" ON "phone_proofs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "phone_proofs_order_idx" ON "phone_proofs" USING btree ("order_id");