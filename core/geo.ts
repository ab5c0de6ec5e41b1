/**
 * Points on the map (issue 26): an address's latitude and longitude, checked the same way in the
 * browser and on the server. The shop delivers in Lima and Callao only, so a point outside their
 * box is a mistake (a tap on the sea, a phone's location abroad, a swapped lat/lng).
 */
import { z } from "./zod";

export interface GeoPoint {
  lat: number;
  lng: number;
}

/**
 * Lima Metropolitana and Callao with a little margin: Ancón and Santa Rosa to the north, Pucusana
 * to the south, La Punta and the Callao islands to the west, Chosica (Lurigancho) to the east.
 */
export const LIMA_BOUNDS = { south: -12.55, north: -11.55, west: -77.26, east: -76.6 } as const;

/** Where an empty map opens: Lima's centre of gravity for the shop (San Isidro, Miraflores, Lince). */
export const LIMA_MAP_CENTRE: GeoPoint = { lat: -12.1, lng: -77.03 };

export const OUTSIDE_LIMA = "La ubicación debe estar dentro de Lima Metropolitana o Callao";
export const INVALID_POINT = "La ubicación no es válida: vuelve a marcarla en el mapa";

export function isInsideLima(point: GeoPoint): boolean {
  return (
    Number.isFinite(point.lat) &&
    Number.isFinite(point.lng) &&
    point.lat >= LIMA_BOUNDS.south &&
    point.lat <= LIMA_BOUNDS.north &&
    point.lng >= LIMA_BOUNDS.west &&
    point.lng <= LIMA_BOUNDS.east
  );
}

/** Six decimals (about 11 cm) is more than any phone or map gives; more is noise in the database. */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

const coordinate = z.coerce.number({ message: INVALID_POINT }).finite(INVALID_POINT);

/** A point inside Lima, rounded; from JSON numbers or form text. */
export const limaPointSchema = z
  .object({ lat: coordinate, lng: coordinate })
  .refine(isInsideLima, { message: OUTSIDE_LIMA, path: ["ubicacion"] })
  .transform((point) => ({ lat: roundCoordinate(point.lat), lng: roundCoordinate(point.lng) }));

/**
 * The optional point of a form (checkout, sign-up, profile, staff's order page): both fields empty
 * means "no point" (the district's centre stands in), one without the other or a point outside
 * Lima is refused with a Spanish message.
 */
export const optionalPointFields = z
  .object({
    lat: z.union([z.string(), z.number(), z.null()]).optional(),
    lng: z.union([z.string(), z.number(), z.null()]).optional(),
  })
  .transform((value, context): GeoPoint | null => {
    const empty = (part: unknown) => part === undefined || part === null || part === "";
    if (empty(value.lat) && empty(value.lng)) return null;
    const parsed = limaPointSchema.safeParse(value);
    if (!parsed.success) {
      context.addIssue({ code: "custom", path: ["ubicacion"], message: parsed.error.issues[0]?.message ?? INVALID_POINT });
      return z.NEVER;
    }
    return parsed.data;
  });

/** "-12.121100, -77.029700": how staff and the fallback text show a point. */
/** "-12.1211, -77.0297" (as Google Maps copies it) → a point inside Lima; anything else → null. */
export function parseCoordinates(text: string): GeoPoint | null {
  const match = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*[,;\s]\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return null;
  const parsed = limaPointSchema.safeParse({ lat: match[1], lng: match[2] });
  return parsed.success ? parsed.data : null;
}

export function formatPoint(point: GeoPoint): string {
  return `${point.lat.toFixed(6)}, ${point.lng.toFixed(6)}`;
}
