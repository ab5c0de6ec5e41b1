-- Deliveries of orders that failed, were cancelled (an unpaid order expiring included) or were
-- refunded after a cancellation were left "pending" and listed as upcoming. From now on the order's
-- transition cancels them (server/orders/transition.ts); this fixes the rows written before.
UPDATE "deliveries" AS d
SET "status" = 'cancelled',
    "updated_at" = now(),
    "status_history" = d."status_history" || jsonb_build_array(jsonb_build_object(
      'status', 'cancelled',
      'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'note', CASE o."status" WHEN 'failed' THEN 'Pago rechazado: pedido fallido' ELSE 'Pedido cancelado' END
    ))
FROM "orders" AS o
WHERE o."id" = d."order_id"
  AND o."status" IN ('failed', 'cancelled', 'refunded')
  AND d."status" IN ('pending', 'preparing', 'scheduled', 'rescheduled', 'failed');
