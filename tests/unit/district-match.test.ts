import { describe, expect, it } from "vitest";
import { districtMatchMessage, matchDistrict } from "@core/district-match";

const served = [
  { id: 1, name: "Miraflores" },
  { id: 2, name: "San Juan de Miraflores" },
  { id: 3, name: "Santiago de Surco" },
  { id: 4, name: "Breña" },
  { id: 5, name: "Jesús María" },
  { id: 6, name: "San Isidro" },
  { id: 7, name: "San Borja" },
];

describe("matching the district a customer typed (issue 41)", () => {
  it("accepts a whole name whatever its case, accents and spaces", () => {
    expect(matchDistrict("  BRENA ", served)).toEqual({ kind: "exact", district: served[3] });
    expect(matchDistrict("jesus maria", served)).toEqual({ kind: "exact", district: served[4] });
    expect(matchDistrict("miraflores", served)).toEqual({ kind: "exact", district: served[0] });
  });

  it("understands a part of one district's name made of whole words, and says which", () => {
    const match = matchDistrict("surco", served);
    expect(match).toEqual({ kind: "understood", district: served[2] });
    expect(districtMatchMessage(match, "surco")).toBe("Entendimos: Santiago de Surco.");
  });

  it("names the candidates when the words fit more than one district, and accepts none", () => {
    const match = matchDistrict("san", served);
    expect(match.kind).toBe("ambiguous");
    expect(districtMatchMessage(match, "san ")).toBe("«san» puede ser San Juan de Miraflores o San Isidro o San Borja. Elige uno de la lista.");
  });

  it("refuses a part of a word and a district the shop does not serve, in Spanish", () => {
    expect(matchDistrict("sur", served).kind).toBe("none");
    const match = matchDistrict("Ancón", served);
    expect(match.kind).toBe("none");
    expect(districtMatchMessage(match, "Ancón")).toBe("No repartimos en «Ancón» o no lo reconocemos. Elige tu distrito de la lista.");
    expect(matchDistrict("   ", served).kind).toBe("empty");
  });
});
