CREATE TABLE "sandbox_charges" (
	"charge_key" text PRIMARY KEY NOT NULL,
	"charge_id" text NOT NULL,
	"card_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"paid" boolean NOT NULL,
	"decline_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_charges_charge_id_unique" UNIQUE("charge_id")
);
--> statement-breakpoint
CREATE TABLE "organization_votes" (
	"user_id" text PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_customer_id" text,
	"provider_card_id" text NOT NULL,
	"brand" text,
	"last4" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "payment_methods_provider_card_unique" UNIQUE("provider","provider_card_id")
);
--> statement-breakpoint
CREATE TABLE "subscription_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"period_number" integer NOT NULL,
	"billing_date" date NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"amount_cents" integer NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_date" date,
	"charge_key" text,
	"provider_charge_id" text,
	"order_id" uuid,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_periods_charge_key_unique" UNIQUE("charge_key"),
	CONSTRAINT "subscription_periods_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "subscription_periods_subscription_period_unique" UNIQUE("subscription_id","period_number")
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "subscription_id" uuid;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "subscription_sequence" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "payment_method_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "billing_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "pending_frequency" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "next_period_number" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "deliveries_made" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_votes" ADD CONSTRAINT "organization_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_votes" ADD CONSTRAINT "organization_votes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_periods" ADD CONSTRAINT "subscription_periods_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_periods" ADD CONSTRAINT "subscription_periods_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organization_votes_organization_idx" ON "organization_votes" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "payment_methods_user_idx" ON "payment_methods" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "subscription_periods_status_idx" ON "subscription_periods" USING btree ("status","next_attempt_date");--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_subscription_sequence_unique" UNIQUE("subscription_id","subscription_sequence");