import { describe, expect, it } from "vitest";
import { chunkDistricts } from "~/components/layout/site-footer";
import { formatLegalDate } from "~/components/layout/legal-page";
import { CAROUSEL_INTERVAL_MS, wrapIndex } from "~/lib/carousel";
import { scrollRevealDefaults } from "~/lib/use-scroll-reveal";

describe("carousel index", () => {
  it("wraps past either end", () => {
    expect(wrapIndex(3, 3)).toBe(0);
    expect(wrapIndex(-1, 3)).toBe(2);
    expect(wrapIndex(7, 3)).toBe(1);
    expect(wrapIndex(0, 0)).toBe(0);
    expect(CAROUSEL_INTERVAL_MS).toBe(3500);
  });
});

describe("footer districts", () => {
  it("groups districts 9 per row", () => {
    const rows = chunkDistricts(Array.from({ length: 22 }, (_, i) => i));
    expect(rows.map((row) => row.length)).toEqual([9, 9, 4]);
    expect(chunkDistricts([])).toEqual([]);
  });
});

describe("legal page date", () => {
  it("writes the stored date the way the spec shows it", () => {
    expect(formatLegalDate("2025-08-15")).toBe("15 de agosto de 2025");
  });
});

describe("scroll reveal", () => {
  it("uses the spec's defaults", () => {
    expect(scrollRevealDefaults).toEqual({ threshold: 0.15, rootMargin: "-50px", triggerOnce: true, delay: 0 });
  });
});
