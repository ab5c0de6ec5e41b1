/**
 * Travel times without a road engine (issue 26): the great-circle distance between two points,
 * times a detour factor (streets are not straight lines), divided by an average speed. The
 * parameters are the caller's (shop settings); nothing here guesses them.
 */

export interface LatLng {
  lat: number;
  lng: number;
}

export interface TravelModel {
  /** Average driving speed, km/h (door to door, traffic included). */
  speedKmh: number;
  /** Road distance ÷ straight-line distance, ≥ 1. */
  detour: number;
}

export interface TravelMatrix {
  /** Seconds from row to column, whole. */
  durations: number[][];
  /** Metres by road (estimated) from row to column, whole. */
  distances: number[][];
}

export const EARTH_RADIUS_KM = 6371.0088;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance in kilometres (haversine formula, mean Earth radius). */
export function haversineKm(a: LatLng, b: LatLng): number {
  const dLat = radians(b.lat - a.lat);
  const dLng = radians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export class InvalidTravelModelError extends Error {
  override name = "InvalidTravelModelError";
}

export function assertTravelModel(travel: TravelModel): void {
  if (!(travel.speedKmh > 0 && Number.isFinite(travel.speedKmh))) throw new InvalidTravelModelError("speedKmh must be a positive number");
  if (!(travel.detour >= 1 && Number.isFinite(travel.detour))) throw new InvalidTravelModelError("detour must be a number ≥ 1");
}

/** Estimated road kilometres between two points. */
export function roadKm(a: LatLng, b: LatLng, travel: TravelModel): number {
  return haversineKm(a, b) * travel.detour;
}

/**
 * Whole seconds and metres between two VROOM coordinates (`[lon, lat]`): the one rounding every
 * part of the shop uses, so the solver, the checker and the route sheet agree to the second.
 */
export function pairTravel(from: readonly [number, number], to: readonly [number, number], travel: TravelModel): { seconds: number; metres: number } {
  // Written exactly as the built-in solver's matrix (model.ts) computes it, to the last bit.
  const fromLat = (from[1] * Math.PI) / 180;
  const toLat = (to[1] * Math.PI) / 180;
  const h =
    Math.sin((toLat - fromLat) / 2) ** 2 + Math.cos(fromLat) * Math.cos(toLat) * Math.sin(((to[0] * Math.PI) / 180 - (from[0] * Math.PI) / 180) / 2) ** 2;
  const km = 2 * EARTH_RADIUS_KM * travel.detour * Math.asin(Math.min(1, Math.sqrt(h)));
  return { seconds: Math.round((km / travel.speedKmh) * 3600), metres: Math.round(km * 1000) };
}

/** Durations (s) and distances (m) between every pair of points, whole numbers as VROOM wants them. */
export function buildTravelMatrix(points: readonly LatLng[], travel: TravelModel): TravelMatrix {
  assertTravelModel(travel);
  const durations = points.map(() => new Array<number>(points.length).fill(0));
  const distances = points.map(() => new Array<number>(points.length).fill(0));
  points.forEach((from, row) => {
    for (let column = row + 1; column < points.length; column++) {
      const to = points[column]!;
      const { seconds, metres } = pairTravel([from.lng, from.lat], [to.lng, to.lat], travel);
      durations[row]![column] = durations[column]![row] = seconds;
      distances[row]![column] = distances[column]![row] = metres;
    }
  });
  return { durations, distances };
}
