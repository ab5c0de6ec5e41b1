import { and, eq, isNull } from "drizzle-orm";
import type { GeoPoint } from "@core/geo";
import { districts } from "../schema";
import type { Transaction } from "../transaction";

/**
 * The centre of each Lima and Callao district by ubigeo (issue 26): the main square or the middle of
 * its built-up area, read off OpenStreetMap, to about 500 m. A stop without its own point is routed
 * here and marked "ubicación aproximada"; staff correct a centre at /admin/distritos.
 */
export const DISTRICT_CENTRES: Record<string, GeoPoint> = {
  "150101": { lat: -12.0464, lng: -77.0428 }, // Lima (Cercado)
  "150102": { lat: -11.7739, lng: -77.1756 }, // Ancón
  "150103": { lat: -12.0256, lng: -76.9214 }, // Ate
  "150104": { lat: -12.1494, lng: -77.0214 }, // Barranco
  "150105": { lat: -12.0597, lng: -77.0506 }, // Breña
  "150106": { lat: -11.8686, lng: -77.0339 }, // Carabayllo
  "150107": { lat: -11.9781, lng: -76.7669 }, // Chaclacayo
  "150108": { lat: -12.1687, lng: -77.015 }, // Chorrillos
  "150109": { lat: -12.1142, lng: -76.8128 }, // Cieneguilla
  "150110": { lat: -11.9333, lng: -77.05 }, // Comas
  "150111": { lat: -12.045, lng: -76.995 }, // El Agustino
  "150112": { lat: -11.9917, lng: -77.05 }, // Independencia
  "150113": { lat: -12.0717, lng: -77.0436 }, // Jesús María
  "150114": { lat: -12.0814, lng: -76.9317 }, // La Molina
  "150115": { lat: -12.0653, lng: -77.0306 }, // La Victoria
  "150116": { lat: -12.0833, lng: -77.0333 }, // Lince
  "150117": { lat: -11.97, lng: -77.07 }, // Los Olivos
  "150118": { lat: -11.9361, lng: -76.6975 }, // Lurigancho (Chosica)
  "150119": { lat: -12.275, lng: -76.87 }, // Lurín
  "150120": { lat: -12.0908, lng: -77.0708 }, // Magdalena del Mar
  "150121": { lat: -12.075, lng: -77.0633 }, // Pueblo Libre
  "150122": { lat: -12.1211, lng: -77.0297 }, // Miraflores
  "150123": { lat: -12.23, lng: -76.86 }, // Pachacámac
  "150124": { lat: -12.4817, lng: -76.7969 }, // Pucusana
  "150125": { lat: -11.8667, lng: -77.0767 }, // Puente Piedra
  "150126": { lat: -12.335, lng: -76.8244 }, // Punta Hermosa
  "150127": { lat: -12.365, lng: -76.795 }, // Punta Negra
  "150128": { lat: -12.0292, lng: -77.0286 }, // Rímac
  "150129": { lat: -12.3889, lng: -76.7806 }, // San Bartolo
  "150130": { lat: -12.1, lng: -76.9958 }, // San Borja
  "150131": { lat: -12.0972, lng: -77.0364 }, // San Isidro
  "150132": { lat: -11.9833, lng: -77.0 }, // San Juan de Lurigancho
  "150133": { lat: -12.1567, lng: -76.9725 }, // San Juan de Miraflores
  "150134": { lat: -12.0764, lng: -76.995 }, // San Luis
  "150135": { lat: -12.0, lng: -77.0667 }, // San Martín de Porres
  "150136": { lat: -12.0775, lng: -77.0906 }, // San Miguel
  "150137": { lat: -12.0431, lng: -76.9711 }, // Santa Anita
  "150138": { lat: -12.4064, lng: -76.7747 }, // Santa María del Mar
  "150139": { lat: -11.8064, lng: -77.1642 }, // Santa Rosa
  "150140": { lat: -12.145, lng: -76.9917 }, // Santiago de Surco
  "150141": { lat: -12.1125, lng: -77.015 }, // Surquillo
  "150142": { lat: -12.2133, lng: -76.9367 }, // Villa El Salvador
  "150143": { lat: -12.1606, lng: -76.9428 }, // Villa María del Triunfo
  "070101": { lat: -12.0566, lng: -77.1181 }, // Callao
  "070102": { lat: -12.0622, lng: -77.1036 }, // Bellavista
  "070103": { lat: -12.0431, lng: -77.0911 }, // Carmen de la Legua Reynoso
  "070104": { lat: -12.0686, lng: -77.1153 }, // La Perla
  "070105": { lat: -12.0725, lng: -77.1631 }, // La Punta
  "070106": { lat: -11.875, lng: -77.125 }, // Ventanilla
  "070107": { lat: -11.8553, lng: -77.1264 }, // Mi Perú
};

/**
 * Gives each district without a centre the one above (a database seeded before issue 26, or a new
 * district): a centre staff set is never overwritten. One statement per district, run on every
 * start like the delivery calendar's seeding; a row already filled is left alone.
 */
export async function seedDistrictCentres(tx: Transaction): Promise<void> {
  const missing = await tx.select({ id: districts.id, ubigeo: districts.ubigeo }).from(districts).where(isNull(districts.centerLat));
  for (const district of missing) {
    const centre = DISTRICT_CENTRES[district.ubigeo];
    if (!centre) continue;
    await tx
      .update(districts)
      .set({ centerLat: centre.lat, centerLng: centre.lng })
      .where(and(eq(districts.id, district.id), isNull(districts.centerLat)));
  }
}
