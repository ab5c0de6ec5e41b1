ALTER TABLE "orders" ADD COLUMN "delivery_cadence" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "delivery_cadence" text DEFAULT 'monthly' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "delivery_anchor_date" date;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_delivery_cadence_known" CHECK ("subscriptions"."delivery_cadence" in ('weekly', 'biweekly', 'monthly'));--> statement-breakpoint
-- data: issue 41 (decision 0097). Every subscription order placed before cadences was billed for
-- one delivery a month: say so on the order, so its deliveries are counted by the cadence it was
-- billed with even if its subscription's cadence changes later. Other orders keep null.
UPDATE "orders" SET "delivery_cadence" = 'monthly' WHERE "subscription_frequency" IS NOT NULL AND "delivery_cadence" IS NULL;
