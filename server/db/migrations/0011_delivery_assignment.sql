ALTER TABLE "deliveries" ADD COLUMN "assigned_driver_id" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "route_position" integer;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_assigned_driver_id_users_id_fk" FOREIGN KEY ("assigned_driver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_driver_date_idx" ON "deliveries" USING btree ("assigned_driver_id","delivery_date");