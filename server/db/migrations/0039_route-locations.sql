CREATE TABLE "route_optimisations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "route_optimisations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"request_key" text NOT NULL,
	"delivery_date" date NOT NULL,
	"created_by" text NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "route_optimisations_request_key_unique" UNIQUE("request_key")
);
--> statement-breakpoint
CREATE TABLE "route_plans" (
	"delivery_date" date NOT NULL,
	"driver_id" text NOT NULL,
	"capacity" integer NOT NULL,
	"capacity_unit" text NOT NULL,
	"shift_start" text NOT NULL,
	"shift_end" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "route_plans_delivery_date_driver_id_pk" PRIMARY KEY("delivery_date","driver_id")
);
--> statement-breakpoint
CREATE TABLE "route_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"depot_label" text DEFAULT 'Almacén Surquillo' NOT NULL,
	"depot_lat" double precision DEFAULT -12.1175 NOT NULL,
	"depot_lng" double precision DEFAULT -77.012 NOT NULL,
	"service_minutes" integer DEFAULT 6 NOT NULL,
	"detour_factor" double precision DEFAULT 1.35 NOT NULL,
	"average_speed_kmh" double precision DEFAULT 18 NOT NULL,
	"van_capacity" integer DEFAULT 60 NOT NULL,
	"van_capacity_unit" text DEFAULT 'bidones' NOT NULL,
	"shift_start" text DEFAULT '08:30' NOT NULL,
	"shift_end" text DEFAULT '18:30' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "districts" ADD COLUMN "center_lat" double precision;--> statement-breakpoint
ALTER TABLE "districts" ADD COLUMN "center_lng" double precision;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "lat" double precision;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "lng" double precision;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "estimated_arrival_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "address_lat" double precision;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "address_lng" double precision;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "address_lat" double precision;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "address_lng" double precision;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "address_lat" double precision;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "address_lng" double precision;--> statement-breakpoint
ALTER TABLE "route_plans" ADD CONSTRAINT "route_plans_driver_id_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "route_optimisations_date_idx" ON "route_optimisations" USING btree ("delivery_date","id");