/**
 * Peru's national holidays (feriados nacionales) of any year, worked out rather than stored
 * (issue 23, decision 0070): the fixed dates of shared/reference/peru-consumer.md, and Holy
 * Thursday and Good Friday from Easter Sunday. The law changes the list from time to time: staff
 * add a one-off holiday, or mark a national holiday as a delivery day, at /admin/calendario (rows of
 * `delivery_closed_days` that take precedence over this list, see `closedDaysLookup`).
 */
import { addDays } from "@core/lima-dates";

export const FIXED_NATIONAL_HOLIDAYS: readonly (readonly [monthDay: string, name: string])[] = [
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

/**
 * Western (Gregorian) Easter Sunday of `year` as `YYYY-MM-DD`: the anonymous Gregorian computus
 * (Meeus/Jones/Butcher), exact for every Gregorian year.
 */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export interface NationalHoliday {
  date: string;
  name: string;
}

const byYear = new Map<number, NationalHoliday[]>();

/** The national holidays of `year`, in date order. */
export function nationalHolidaysOf(year: number): readonly NationalHoliday[] {
  let holidays = byYear.get(year);
  if (!holidays) {
    const easter = easterSunday(year);
    holidays = [
      ...FIXED_NATIONAL_HOLIDAYS.map(([monthDay, name]) => ({ date: `${year}-${monthDay}`, name })),
      { date: addDays(easter, -3), name: "Jueves Santo" },
      { date: addDays(easter, -2), name: "Viernes Santo" },
    ].sort((x, y) => x.date.localeCompare(y.date));
    byYear.set(year, holidays);
  }
  return holidays;
}

/** The national holidays from `from` through `to` (`YYYY-MM-DD`, both included), in date order. */
export function nationalHolidaysBetween(from: string, to: string): NationalHoliday[] {
  const holidays: NationalHoliday[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year += 1) {
    for (const holiday of nationalHolidaysOf(year)) if (holiday.date >= from && holiday.date <= to) holidays.push(holiday);
  }
  return holidays;
}

/** The national holiday's name on `date`, or null. */
export function nationalHolidayOn(date: string): string | null {
  return nationalHolidaysOf(Number(date.slice(0, 4))).find((holiday) => holiday.date === date)?.name ?? null;
}

/**
 * What staff set for one date at /admin/calendario (a `delivery_closed_days` row): `feriado` (a
 * holiday added by hand, such as one a new law declares), `cierre` (the shop's own closed day) or
 * `abierto` (a national holiday the shop delivers on after all).
 */
export interface ClosedDayRow {
  date: string;
  kind: string;
  name: string;
}

export const OPEN_ON_HOLIDAY = "abierto";

/** The closed days of the calendar: what `calendarRefusal` and `openDates` read. */
export interface ClosedDaysLookup {
  /** The name of the closed day on `date` (holiday or closure); undefined when deliveries go. */
  get(date: string): string | undefined;
  has(date: string): boolean;
}

/**
 * Closed days: staff's rows first (a row decides its date), else the national holiday of that
 * date. `rows` must hold every row of the dates that will be asked about. `holidaysOnly`: the
 * non-business days of legal deadlines (Libro de Reclamaciones), where the shop's own closures
 * (`cierre`) do not count.
 */
export function closedDaysLookup(rows: Iterable<ClosedDayRow>, options: { holidaysOnly?: boolean } = {}): ClosedDaysLookup {
  const own = new Map<string, ClosedDayRow>();
  for (const row of rows) own.set(row.date, row);
  const get = (date: string): string | undefined => {
    const row = own.get(date);
    if (row?.kind === OPEN_ON_HOLIDAY) return undefined;
    // For legal deadlines only holidays count: a closure of the shop's own is a working day.
    if (row && !(options.holidaysOnly && row.kind !== "feriado")) return row.name;
    return nationalHolidayOn(date) ?? undefined;
  };
  return { get, has: (date) => get(date) !== undefined };
}
