import { describe, expect, it } from "vitest";
import { formatPriceRange, formatSoles } from "@core/money";

describe("money", () => {
  it("formats céntimos as soles with two decimals", () => {
    expect(formatSoles(5000)).toBe("S/ 50.00");
    expect(formatSoles(1590)).toBe("S/ 15.90");
    expect(formatSoles(123456)).toBe("S/ 1,234.56");
    expect(formatSoles(0)).toBe("S/ 0.00");
  });

  it("writes every amount as es-PE's Intl number format does (it is written out for the phones' start-up, issue 26)", () => {
    const intl = new Intl.NumberFormat("es-PE", { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });
    const amounts = [1, 9, 10, 99, 100, 101, 999, 1000, 99_999, 100_000, 123_456, 999_999, 1_000_000, 123_456_789, 100_000_000_000, -1, -1250, -123_456];
    let seed = 7;
    for (let index = 0; index < 2000; index += 1) {
      seed = (seed * 48_271) % 2_147_483_647;
      amounts.push(seed % 10 ** (1 + (index % 11)));
    }
    for (const cents of amounts) expect(formatSoles(cents), String(cents)).toBe(`S/ ${intl.format(cents / 100)}`);
  });

  it("shows a range only when min and max differ", () => {
    expect(formatPriceRange(3000, 10500)).toBe("S/ 30.00 - S/ 105.00");
    expect(formatPriceRange(5990, 5990)).toBe("S/ 59.90");
    expect(formatPriceRange(null, null)).toBeNull();
  });
});
