import { describe, expect, it } from "vitest";
import { useBrowser } from "../support/e2e";

describe("abandoned cart link", () => {
  const shop = useBrowser();

  it("explains a missing or unknown token with the spec's messages", async () => {
    const { page, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/resume-cart`);
    expect(await page.getByRole("alert").textContent()).toBe("Token inválido");
    await page.goto(`${shop.baseURL()}/resume-cart?token=${"x".repeat(43)}`);
    expect(await page.getByRole("alert").textContent()).toBe("No se encontró el carrito");
    await close();
  });
});
