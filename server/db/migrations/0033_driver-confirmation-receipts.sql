CREATE TABLE "driver_confirmation_receipts" (
	"key" uuid PRIMARY KEY NOT NULL,
	"driver_id" text NOT NULL,
	"delivery_id" uuid NOT NULL,
	"intent" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "driver_confirmation_receipts" ADD CONSTRAINT "driver_confirmation_receipts_driver_id_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_confirmation_receipts" ADD CONSTRAINT "driver_confirmation_receipts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "driver_confirmation_receipts_delivery_idx" ON "driver_confirmation_receipts" USING btree ("delivery_id");