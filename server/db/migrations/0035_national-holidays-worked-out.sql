-- Decision 0070 (issue 23): Peru's national holidays are worked out for every year
-- (core/peru-holidays.ts), no longer seeded rows. The calendar seed put those of 2026 and 2027 in
-- delivery_closed_days; this removes exactly those rows (same date, kind and name) and keeps every
-- row staff added. A seeded holiday staff had removed becomes an `abierto` row, so that date stays
-- a delivery day. Hand-written SQL: one statement, its parts see the table as it was.
WITH seed(closed_on, name) AS (VALUES
  ('2026-01-01'::date, 'Año Nuevo'),
  ('2026-04-02'::date, 'Jueves Santo'),
  ('2026-04-03'::date, 'Viernes Santo'),
  ('2026-05-01'::date, 'Día del Trabajo'),
  ('2026-06-07'::date, 'Batalla de Arica y Día de la Bandera'),
  ('2026-06-29'::date, 'San Pedro y San Pablo'),
  ('2026-07-23'::date, 'Día de la Fuerza Aérea del Perú'),
  ('2026-07-28'::date, 'Fiestas Patrias'),
  ('2026-07-29'::date, 'Fiestas Patrias'),
  ('2026-08-06'::date, 'Batalla de Junín'),
  ('2026-08-30'::date, 'Santa Rosa de Lima'),
  ('2026-10-08'::date, 'Combate de Angamos'),
  ('2026-11-01'::date, 'Día de Todos los Santos'),
  ('2026-12-08'::date, 'Inmaculada Concepción'),
  ('2026-12-09'::date, 'Batalla de Ayacucho'),
  ('2026-12-25'::date, 'Navidad'),
  ('2027-01-01'::date, 'Año Nuevo'),
  ('2027-03-25'::date, 'Jueves Santo'),
  ('2027-03-26'::date, 'Viernes Santo'),
  ('2027-05-01'::date, 'Día del Trabajo'),
  ('2027-06-07'::date, 'Batalla de Arica y Día de la Bandera'),
  ('2027-06-29'::date, 'San Pedro y San Pablo'),
  ('2027-07-23'::date, 'Día de la Fuerza Aérea del Perú'),
  ('2027-07-28'::date, 'Fiestas Patrias'),
  ('2027-07-29'::date, 'Fiestas Patrias'),
  ('2027-08-06'::date, 'Batalla de Junín'),
  ('2027-08-30'::date, 'Santa Rosa de Lima'),
  ('2027-10-08'::date, 'Combate de Angamos'),
  ('2027-11-01'::date, 'Día de Todos los Santos'),
  ('2027-12-08'::date, 'Inmaculada Concepción'),
  ('2027-12-09'::date, 'Batalla de Ayacucho'),
  ('2027-12-25'::date, 'Navidad')
),
seeded AS (
  SELECT EXISTS (
    SELECT 1 FROM delivery_closed_days c JOIN seed s ON c.closed_on = s.closed_on AND c.kind = 'feriado' AND c.name = s.name
  ) AS yes
),
opened AS (
  INSERT INTO delivery_closed_days (closed_on, kind, name)
  SELECT s.closed_on, 'abierto', s.name FROM seed s, seeded
  WHERE seeded.yes AND NOT EXISTS (SELECT 1 FROM delivery_closed_days c WHERE c.closed_on = s.closed_on)
  RETURNING closed_on
)
DELETE FROM delivery_closed_days c USING seed s
WHERE c.closed_on = s.closed_on AND c.kind = 'feriado' AND c.name = s.name;
