ALTER TABLE "delivery_slots" ADD COLUMN "open_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Decision 0102 (issue 43): each slot row counts its open deliveries, so a claim locks the row and
-- reads its count in one statement whose cost does not grow with the slot's orders. The triggers
-- below keep the count exact whatever changes a delivery, or which district has its own places.
-- The open statuses are OPEN_DELIVERY_STATUSES (server/deliveries/delivery-status.ts).
-- The slot scope of a delivery, as capacity.ts's scopeOf gives it: its district's own pool where
-- staff gave the district a figure for that weekday and window, else the shop-wide pool.
CREATE FUNCTION "delivery_capacity_scope"(district integer, day date, slot_window text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN EXISTS (
    SELECT 1 FROM "delivery_capacity_overrides" o
    WHERE o."district_id" = district AND o."day_number" = extract(isodow FROM day)::int AND o."delivery_window" = slot_window
  ) THEN 'district:' || district ELSE 'shop' END
$$;
--> statement-breakpoint
-- A statement's changes to `deliveries`, netted per slot and applied in (date, window, scope)
-- order, the order claims lock slots in (decision 0025). The shared advisory lock (class "slot")
-- is taken before the overrides are read: a change of which districts have their own places takes
-- it exclusively and recounts, so a delivery is never counted in the pool it just left.
CREATE FUNCTION "delivery_slots_follow_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Most updates (a route position, a note, a move between open statuses) change no count: they
  -- return before any lock. Nested: plpgsql parses the whole condition, and only an update has both tables.
  IF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (
    SELECT 1 FROM old_deliveries o JOIN new_deliveries n ON n."id" = o."id"
    WHERE (o."status" IN ('pending', 'preparing', 'scheduled', 'shipped', 'in_transit', 'rescheduled', 'failed'))
        IS DISTINCT FROM (n."status" IN ('pending', 'preparing', 'scheduled', 'shipped', 'in_transit', 'rescheduled', 'failed'))
      OR (n."status" IN ('pending', 'preparing', 'scheduled', 'shipped', 'in_transit', 'rescheduled', 'failed')
        AND (o."delivery_date", o."delivery_window", o."district_id") IS DISTINCT FROM (n."delivery_date", n."delivery_window", n."district_id"))
    ) THEN
      RETURN NULL;
    END IF;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(1936486260, 0);
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "delivery_slots" AS s ("delivery_date", "delivery_window", "scope", "open_count")
    SELECT n."delivery_date", n."delivery_window", delivery_capacity_scope(n."district_id", n."delivery_date", n."delivery_window"), count(*)::int
    FROM new_deliveries n
    WHERE n."status" IN ('pending', 'preparing', 'scheduled', 'shipped', 'in_transit', 'rescheduled', 'failed')
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("delivery_date", "delivery_window", "scope") DO UPDATE SET "open_count" = s."open_count" + excluded."open_count";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "delivery_slots" AS s ("delivery_date", "delivery_window", "scope", "open_count")
    SELECT o."delivery_date", o."delivery_window", delivery_capacity_scope(o."district_id", o."delivery_date", o."delivery_window"), -count(*)::int
    FROM old_deliveries o
    WHERE o."status" IN ('pending', 'preparing', 'scheduled', 'shipped', 'in_transit', 'rescheduled', 'failed')
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("delivery_date", "delivery_window", "scope") DO UPDATE SET "open_count" = s."open_count" + excluded."open_count";
  ELSE
    INSERT INTO "delivery_slots" AS s ("delivery_date", "delivery_window", "scope", "open_count")
    SELECT c."delivery_date", c."delivery_window", delivery_capacity_scope(c."district_id", c."delivery_date", c."delivery_window") AS scope, sum(c.delta)::int
    FROM (
      SELECT o."delivery_date", o."delivery_window", o."district_id", -1 AS delta FROM old_deliveries o
      WHERE o."status" IN ('pending', 'preparing', 'scheduled', 'shipped', 'in_transit', 'rescheduled', 'failed')
      UNION ALL
      SELECT n."delivery_date", n."delivery_window", n."district_id", 1 FROM new_deliveries n
      WHERE n."status" IN ('pending', 'preparing', 'scheduled', 'shipped', 'in_transit', 'rescheduled', 'failed')
    ) c
    GROUP BY 1, 2, 3 HAVING sum(c.delta) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ("delivery_date", "delivery_window", "scope") DO UPDATE SET "open_count" = s."open_count" + excluded."open_count";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "delivery_slots_count_inserted" AFTER INSERT ON "deliveries"
  REFERENCING NEW TABLE AS new_deliveries FOR EACH STATEMENT EXECUTE FUNCTION "delivery_slots_follow_deliveries"();
--> statement-breakpoint
CREATE TRIGGER "delivery_slots_count_updated" AFTER UPDATE ON "deliveries"
  REFERENCING OLD TABLE AS old_deliveries NEW TABLE AS new_deliveries FOR EACH STATEMENT EXECUTE FUNCTION "delivery_slots_follow_deliveries"();
--> statement-breakpoint
CREATE TRIGGER "delivery_slots_count_deleted" AFTER DELETE ON "deliveries"
  REFERENCING OLD TABLE AS old_deliveries FOR EACH STATEMENT EXECUTE FUNCTION "delivery_slots_follow_deliveries"();
--> statement-breakpoint
-- Every slot of one weekday and window counted again from the deliveries: what a district gaining
-- or losing its own figure for them moves between its pool and the shop's. Rare (staff at
-- /admin/distritos), and under the exclusive "slot" lock, so no delivery changes meanwhile.
CREATE FUNCTION "delivery_slots_recount"(weekday integer, slot_window text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1936486260, 0);
  WITH fresh AS (
    SELECT d."delivery_date", d."delivery_window", delivery_capacity_scope(d."district_id", d."delivery_date", d."delivery_window") AS scope, count(*)::int AS n
    FROM "deliveries" d
    WHERE d."delivery_window" = slot_window AND extract(isodow FROM d."delivery_date")::int = weekday
      AND d."status" IN ('pending', 'preparing', 'scheduled', 'shipped', 'in_transit', 'rescheduled', 'failed')
    GROUP BY 1, 2, 3
  ), counted AS (
    SELECT s."delivery_date", s."delivery_window", s."scope" FROM "delivery_slots" s
    WHERE s."delivery_window" = slot_window AND extract(isodow FROM s."delivery_date")::int = weekday AND s."open_count" <> 0
    UNION
    SELECT f."delivery_date", f."delivery_window", f.scope FROM fresh f
  )
  INSERT INTO "delivery_slots" AS s ("delivery_date", "delivery_window", "scope", "open_count")
  SELECT c."delivery_date", c."delivery_window", c."scope", coalesce(f.n, 0)
  FROM counted c LEFT JOIN fresh f ON f."delivery_date" = c."delivery_date" AND f."delivery_window" = c."delivery_window" AND f.scope = c."scope"
  ORDER BY 1, 2, 3
  ON CONFLICT ("delivery_date", "delivery_window", "scope") DO UPDATE SET "open_count" = excluded."open_count"
    WHERE s."open_count" IS DISTINCT FROM excluded."open_count";
END
$$;
--> statement-breakpoint
CREATE FUNCTION "delivery_slots_follow_overrides"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM delivery_slots_recount(OLD."day_number", OLD."delivery_window");
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND (TG_OP = 'INSERT' OR (OLD."day_number", OLD."delivery_window") IS DISTINCT FROM (NEW."day_number", NEW."delivery_window")) THEN
    PERFORM delivery_slots_recount(NEW."day_number", NEW."delivery_window");
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A new figure for a district's existing weekday and window (only `capacity` changes) moves nothing.
CREATE TRIGGER "delivery_slots_recount_on_override" AFTER INSERT OR DELETE ON "delivery_capacity_overrides"
  FOR EACH ROW EXECUTE FUNCTION "delivery_slots_follow_overrides"();
--> statement-breakpoint
CREATE TRIGGER "delivery_slots_recount_on_moved_override" AFTER UPDATE ON "delivery_capacity_overrides"
  FOR EACH ROW WHEN ((OLD."district_id", OLD."day_number", OLD."delivery_window") IS DISTINCT FROM (NEW."district_id", NEW."day_number", NEW."delivery_window"))
  EXECUTE FUNCTION "delivery_slots_follow_overrides"();
--> statement-breakpoint
-- data: decision 0102. Every slot with open deliveries today gets their count (rows are created
-- where no claim had made one); slots without any keep the column's 0.
INSERT INTO "delivery_slots" AS s ("delivery_date", "delivery_window", "scope", "open_count")
SELECT d."delivery_date", d."delivery_window", delivery_capacity_scope(d."district_id", d."delivery_date", d."delivery_window"), count(*)::int
FROM "deliveries" d
WHERE d."status" IN ('pending', 'preparing', 'scheduled', 'shipped', 'in_transit', 'rescheduled', 'failed')
GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
ON CONFLICT ("delivery_date", "delivery_window", "scope") DO UPDATE SET "open_count" = excluded."open_count";
