import { describe, expect, it } from "vitest";
import { formatPriceRange, formatSoles } from "@core/money";

describe("money", () => {
  it("formats céntimos as soles with two decimals", () => {
    expect(formatSoles(5000)).toBe("S/ 50.00");
    expect(formatSoles(1590)).toBe("S/ 15.90");
    expect(formatSoles(123456)).toBe("S/ 1,234.56");
    expect(formatSoles(0)).toBe("S/ 0.00");
  });

  it("shows a range only when min and max differ", () => {
    expect(formatPriceRange(3000, 10500)).toBe("S/ 30.00 - S/ 105.00");
    expect(formatPriceRange(5990, 5990)).toBe("S/ 59.90");
    expect(formatPriceRange(null, null)).toBeNull();
  });
});
