/**
 * Peru's national holidays of 2026 and 2027 (shared/reference/peru-consumer.md; Holy Thursday and
 * Good Friday follow Easter: 5 April 2026, 28 March 2027). The law changes the list from time to
 * time, so this is only the seed: staff edit it at /admin/calendario.
 */
const HOLIDAYS_OF_EVERY_YEAR: [monthDay: string, name: string][] = [
  ["01-01", "Año Nuevo"],
  ["05-01", "Día del Trabajo"],
  ["06-07", "Batalla de Arica y Día de la Bandera"],
  ["06-29", "San Pedro y San Pablo"],
  ["07-23", "Día de la Fuerza Aérea del Perú"],
  ["07-28", "Fiestas Patrias"],
  ["07-29", "Fiestas Patrias"],
  ["08-06", "Batalla de Junín"],
  ["08-30", "Santa Rosa de Lima"],
  ["10-08", "Combate de Angamos"],
  ["11-01", "Día de Todos los Santos"],
  ["12-08", "Inmaculada Concepción"],
  ["12-09", "Batalla de Ayacucho"],
  ["12-25", "Navidad"],
];

const HOLY_WEEK: [date: string, name: string][] = [
  ["2026-04-02", "Jueves Santo"],
  ["2026-04-03", "Viernes Santo"],
  ["2027-03-25", "Jueves Santo"],
  ["2027-03-26", "Viernes Santo"],
];

export const seedHolidays: { closedOn: string; kind: "feriado"; name: string }[] = [
  ...[2026, 2027].flatMap((year) => HOLIDAYS_OF_EVERY_YEAR.map(([monthDay, name]) => ({ closedOn: `${year}-${monthDay}`, name }))),
  ...HOLY_WEEK.map(([closedOn, name]) => ({ closedOn, name })),
]
  .map((holiday) => ({ ...holiday, kind: "feriado" as const }))
  .sort((a, b) => a.closedOn.localeCompare(b.closedOn));

/**
 * Shop-wide places per window on every weekday (the district's own weekdays still decide where it
 * is served): six trucks of about twenty stops a window. Staff change it per weekday and window
 * and give single districts their own figure.
 */
export const SEED_CAPACITY_PER_WINDOW = 120;
export const SEED_CUTOFF_TIME = "18:00";
