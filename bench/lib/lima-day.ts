// A Lima-like delivery day for the route benchmark (issue 26): deliveries scattered around the
// centres of served districts, the two delivery windows (mañana 9–13, tarde 14–18), a few minutes
// of service per stop, 1–4 bidones each, and a fleet of vans loading at one depot from 8:00 to
// 19:00. Coordinates are approximate district centres; the day is random but the same for a seed.
import type { TravelModel, VroomProblem } from "../../server/routing/index.server";

/** Approximate centres [lat, lng] of districts the shop serves or could (decimal degrees, WGS84). */
const DISTRICT_CENTRES: [string, number, number][] = [
  ["Cercado de Lima", -12.046, -77.043],
  ["Miraflores", -12.121, -77.03],
  ["San Isidro", -12.097, -77.037],
  ["Santiago de Surco", -12.145, -76.991],
  ["La Molina", -12.08, -76.935],
  ["San Borja", -12.108, -76.998],
  ["Lince", -12.084, -77.036],
  ["Jesús María", -12.077, -77.049],
  ["Magdalena del Mar", -12.091, -77.071],
  ["Pueblo Libre", -12.075, -77.063],
  ["San Miguel", -12.077, -77.092],
  ["Barranco", -12.146, -77.021],
  ["Chorrillos", -12.17, -77.017],
  ["Surquillo", -12.112, -77.012],
  ["Ate", -12.026, -76.919],
  ["Villa María del Triunfo", -12.161, -76.938],
  ["San Juan de Miraflores", -12.157, -76.972],
  ["Los Olivos", -11.99, -77.07],
  ["San Martín de Porres", -12.0, -77.06],
  ["San Juan de Lurigancho", -11.98, -77.0],
];

/** The depot: an industrial street in La Victoria / San Luis, central to the served districts. */
export const LIMA_DEPOT = { lat: -12.075, lng: -76.995 };

/** The travel model of the benchmark day (the default shape: haversine × detour ÷ speed). */
export const LIMA_TRAVEL: TravelModel = { speedKmh: 20, detour: 1.35 };

const hours = (value: number) => Math.round(value * 3600);

/** mulberry32, as the solver's own: the day is the same for a seed. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), state | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export interface LimaDayOptions {
  deliveries: number;
  vans: number;
  /** Bidones per van. */
  capacity: number;
  /** Seconds per stop. */
  service: number;
  seed: number;
}

export function limaDay(options: LimaDayOptions): VroomProblem {
  const random = generator(options.seed);
  // Box–Muller: stops spread about 1 km around their district's centre.
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const depot: [number, number] = [LIMA_DEPOT.lng, LIMA_DEPOT.lat];
  return {
    vehicles: Array.from({ length: options.vans }, (_, index) => ({
      id: index + 1,
      description: `Van ${index + 1}`,
      start: depot,
      end: depot,
      capacity: [options.capacity],
      time_window: [hours(8), hours(19)],
    })),
    jobs: Array.from({ length: options.deliveries }, (_, index) => {
      const [, lat, lng] = DISTRICT_CENTRES[Math.floor(random() * DISTRICT_CENTRES.length)]!;
      const morning = random() < 0.5;
      return {
        id: index + 1,
        description: `Entrega ${index + 1}`,
        location: [lng + gaussian() * 0.009, lat + gaussian() * 0.009] as [number, number],
        service: options.service,
        delivery: [1 + Math.floor(random() * 4)],
        time_windows: [morning ? [hours(9), hours(13)] : [hours(14), hours(18)]] as [number, number][],
      };
    }),
  };
}
