import { describe, expect, it } from "vitest";
import { fixedShareImage } from "@server/social-images/index.server";
import { shareArtwork } from "~/routes/resources/share-artwork.server";

describe("the drawings the shared pictures are made of", () => {
  it("finds every drawing the home's and the shop's pictures ask for: the hero beside the home page, the products' in public/images", async () => {
    const asked: string[] = [];
    const artwork = (path: string) => {
      asked.push(path);
      return shareArtwork(path);
    };
    await fixedShareImage("inicio", "Vida Alcalina", artwork);
    await fixedShareImage("tienda", "Vida Alcalina", artwork);
    expect(asked).toHaveLength(4);
    for (const path of asked) expect(shareArtwork(path), path).toMatch(/^<svg[^>]+viewBox=/);
    expect(shareArtwork("/app/components/home/hero.svg")).toContain('viewBox="0 0 720 560"');
  });
});
