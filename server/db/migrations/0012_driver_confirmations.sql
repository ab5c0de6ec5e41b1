CREATE TABLE "bidon_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" text,
	"customer_email" text NOT NULL,
	"kind" text NOT NULL,
	"quantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bidon_movements_delivery_kind_unique" UNIQUE("delivery_id","kind"),
	CONSTRAINT "bidon_movements_quantity_positive" CHECK ("bidon_movements"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "delivery_proofs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"receiver_name" text,
	"full_bidones_left" integer,
	"empty_bidones_collected" integer,
	"failure_reason" text,
	"note" text,
	"driver_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bidon_movements" ADD CONSTRAINT "bidon_movements_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bidon_movements" ADD CONSTRAINT "bidon_movements_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bidon_movements" ADD CONSTRAINT "bidon_movements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_proofs" ADD CONSTRAINT "delivery_proofs_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_proofs" ADD CONSTRAINT "delivery_proofs_driver_id_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bidon_movements_user_idx" ON "bidon_movements" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "bidon_movements_email_idx" ON "bidon_movements" USING btree ("customer_email","created_at");--> statement-breakpoint
CREATE INDEX "delivery_proofs_delivery_idx" ON "delivery_proofs" USING btree ("delivery_id");