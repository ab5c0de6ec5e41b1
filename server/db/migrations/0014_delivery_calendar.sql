CREATE TABLE "delivery_calendar_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"cutoff_time" text DEFAULT '18:00' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_capacity_defaults" (
	"day_number" integer NOT NULL,
	"delivery_window" text NOT NULL,
	"capacity" integer NOT NULL,
	CONSTRAINT "delivery_capacity_defaults_day_number_delivery_window_pk" PRIMARY KEY("day_number","delivery_window")
);
--> statement-breakpoint
CREATE TABLE "delivery_capacity_overrides" (
	"district_id" integer NOT NULL,
	"day_number" integer NOT NULL,
	"delivery_window" text NOT NULL,
	"capacity" integer NOT NULL,
	CONSTRAINT "delivery_capacity_overrides_district_id_day_number_delivery_window_pk" PRIMARY KEY("district_id","day_number","delivery_window")
);
--> statement-breakpoint
CREATE TABLE "delivery_closed_days" (
	"closed_on" date PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_slots" (
	"delivery_date" date NOT NULL,
	"delivery_window" text NOT NULL,
	"scope" text NOT NULL,
	CONSTRAINT "delivery_slots_delivery_date_delivery_window_scope_pk" PRIMARY KEY("delivery_date","delivery_window","scope")
);
--> statement-breakpoint
ALTER TABLE "delivery_capacity_overrides" ADD CONSTRAINT "delivery_capacity_overrides_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE cascade ON UPDATE no action;