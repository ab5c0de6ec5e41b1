/**
 * Which served district a typed name means (issue 41: "surco" typed without choosing the
 * suggestion left the district silently unaccepted). Letters compare without case or accents
 * ("jesus maria" is Jesús María); a whole name wins; otherwise the typed words must be whole
 * consecutive words of exactly one district's name ("surco" → Santiago de Surco, "magdalena" →
 * Magdalena del Mar). Two candidates ("san juan") are ambiguous and named back to the customer.
 */
export interface NamedDistrict {
  name: string;
}

export type DistrictMatch<D extends NamedDistrict> =
  { kind: "empty" } | { kind: "exact"; district: D } | { kind: "understood"; district: D } | { kind: "ambiguous"; candidates: D[] } | { kind: "none" };

/** Lower case, accents and punctuation dropped, spaces collapsed: "  Breña " → "brena". */
export function foldDistrictName(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLocaleLowerCase("es")
    .replace(/[^a-z0-9ñ ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function matchDistrict<D extends NamedDistrict>(typed: string, districts: readonly D[]): DistrictMatch<D> {
  const folded = foldDistrictName(typed);
  if (folded === "") return { kind: "empty" };
  const exact = districts.find((district) => foldDistrictName(district.name) === folded);
  if (exact) return { kind: "exact", district: exact };
  const phrase = ` ${folded} `;
  const candidates = districts.filter((district) => ` ${foldDistrictName(district.name)} `.includes(phrase));
  if (candidates.length === 1) return { kind: "understood", district: candidates[0]! };
  if (candidates.length > 1) return { kind: "ambiguous", candidates };
  return { kind: "none" };
}

/** What the district box says under itself in Spanish, or null when the name was typed in full. */
export function districtMatchMessage(match: DistrictMatch<NamedDistrict>, typed: string): string | null {
  switch (match.kind) {
    case "understood":
      return `Entendimos: ${match.district.name}.`;
    case "ambiguous":
      return `«${typed.trim()}» puede ser ${match.candidates.map((district) => district.name).join(" o ")}. Elige uno de la lista.`;
    case "none":
      return `No repartimos en «${typed.trim()}» o no lo reconocemos. Elige tu distrito de la lista.`;
    default:
      return null;
  }
}
