-- data: issue 41. The bidón ledger (decision 0032) began with the driver app's confirmations, so a
-- customer who had been swapping our bidones before it (every delivery "Entregado", none confirmed
-- with counts) had a balance of 0 and was charged a garantía for bottles the shop had been swapping.
-- Each such customer now gets, from their history, the bidones they hold: a recarga swaps one of
-- ours for their empty, so after a run of swaps they hold as many as the largest swap they received
-- (the largest pack of recargas of a delivered delivery no driver confirmed). One "lent" movement,
-- on their latest such delivery, brings the balance up to that number; a balance already there is
-- left alone. The SKUs are the recargas of core/returnable-bidones.ts (full = empty back), as they
-- are today. Runs again without effect: that delivery then has its movement, and the balance is
-- reached. The demo seed runs this file after writing the demo history (server/db/seed).
WITH "recargas"("sku", "bidones") AS (
	VALUES ('VA-BH20-REC', 1), ('VA-BH20-R3', 3), ('VA-BO20-R4', 4), ('VA-BO20-R10', 10), ('VA-BO20-R20', 20)
),
"before_ledger" AS (
	-- A customer as the ledger knows one: the order's account, else the account with the order's
	-- e-mail (a guest who signed up later owns their guest orders' bidones), else the e-mail alone.
	SELECT
		"d"."id" AS "delivery_id",
		"d"."delivery_date",
		"d"."updated_at",
		"o"."id" AS "order_id",
		coalesce("o"."user_id", "by_email"."id") AS "user_id",
		lower(coalesce("owner"."email", "by_email"."email", "o"."customer_email")) AS "email",
		sum("r"."bidones" * "oi"."quantity")::int AS "bidones"
	FROM "deliveries" "d"
	JOIN "orders" "o" ON "o"."id" = "d"."order_id"
	LEFT JOIN "users" "owner" ON "owner"."id" = "o"."user_id"
	LEFT JOIN "users" "by_email" ON "o"."user_id" IS NULL AND lower("by_email"."email") = lower("o"."customer_email")
	JOIN "order_items" "oi" ON "oi"."order_id" = "o"."id"
	LEFT JOIN "product_variants" "v" ON "v"."id" = "oi"."variant_id"
	LEFT JOIN "products" "p" ON "p"."id" = "oi"."product_id"
	JOIN "recargas" "r" ON "r"."sku" = coalesce("v"."sku", "oi"."sku", "p"."sku")
	WHERE "d"."status" = 'delivered'
		AND NOT EXISTS (SELECT 1 FROM "delivery_proofs" "dp" WHERE "dp"."delivery_id" = "d"."id")
		AND NOT EXISTS (SELECT 1 FROM "bidon_movements" "m" WHERE "m"."delivery_id" = "d"."id")
	GROUP BY "d"."id", "o"."id", "owner"."email", "by_email"."id", "by_email"."email"
),
"customers" AS (
	SELECT
		"user_id",
		"email",
		max("bidones") AS "held",
		(array_agg("delivery_id" ORDER BY "delivery_date" DESC, "updated_at" DESC, "delivery_id"))[1] AS "delivery_id",
		(array_agg("order_id" ORDER BY "delivery_date" DESC, "updated_at" DESC, "delivery_id"))[1] AS "order_id",
		max("updated_at") AS "at"
	FROM "before_ledger"
	GROUP BY "user_id", "email"
),
"balances" AS (
	-- The balance as server/deliveries/bidon-ledger.ts reads it (`ownedBy`).
	SELECT "c".*, coalesce((
		SELECT sum(CASE WHEN "m"."kind" = 'lent' THEN "m"."quantity" ELSE -"m"."quantity" END)
		FROM "bidon_movements" "m"
		WHERE "m"."user_id" = "c"."user_id" OR ("m"."user_id" IS NULL AND "m"."customer_email" = "c"."email")
	), 0) AS "balance"
	FROM "customers" "c"
)
INSERT INTO "bidon_movements" ("delivery_id", "order_id", "user_id", "customer_email", "kind", "quantity", "created_at")
SELECT "delivery_id", "order_id", "user_id", "email", 'lent', "held" - "balance", "at"
FROM "balances"
WHERE "held" > "balance"
ON CONFLICT ("delivery_id", "kind") DO NOTHING;
