import { describe, expect, it } from "vitest";
import { openSignedIn, registerCustomer } from "../support/accounts";
import { useBrowser } from "../support/e2e";
import { newSubscriber } from "../support/subscription-page";

/** decisions.md: pages reached by id show the status to anyone and personal data only to the owner. */
describe("the subscription welcome page reached by its link", () => {
  const shop = useBrowser();

  it("shows anyone the subscription's number and state, and its details only to the subscriber", async () => {
    const subscriber = await newSubscriber(shop);
    const path = `/suscripcion/bienvenido?subscriptionId=${subscriber.subscriptionId}`;

    const anonymous = await shop.open();
    expect((await anonymous.page.goto(`${shop.baseURL()}${path}`))?.status()).toBe(200);
    expect(new URL(anonymous.page.url()).pathname).toBe("/suscripcion/bienvenido");
    const heading = (await anonymous.page.getByRole("heading", { level: 1 }).textContent())!;
    expect(heading).toMatch(/^Suscripción SUS-\d{6}$/);
    expect(await anonymous.page.getByTestId("subscription-status").textContent()).toBe("Activa");
    const publicText = (await anonymous.page.locator("main").textContent())!;
    for (const personal of ["Av. Larco", "Miraflores", "terminada en", "Caja de 20 L", subscriber.organizationTitle])
      expect(publicText).not.toContain(personal);
    expect(await anonymous.page.getByRole("link", { name: "Iniciar sesión" }).getAttribute("href")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    anonymous.expectClean();
    await anonymous.close();

    const stranger = await openSignedIn(shop, (await registerCustomer(shop.baseURL())).cookies);
    await stranger.page.goto(`${shop.baseURL()}${path}`);
    expect(await stranger.page.getByRole("heading", { level: 1 }).textContent()).toBe(heading);
    expect(await stranger.page.getByText("Esta suscripción es de otra cuenta").count()).toBe(1);
    expect(await stranger.page.locator("main").textContent()).not.toContain("Av. Larco");
    await stranger.close();

    const owner = await openSignedIn(shop, subscriber.cookies);
    await owner.page.goto(`${shop.baseURL()}${path}`);
    await owner.page.getByRole("heading", { name: "¡Bienvenido a tu suscripción!" }).waitFor();
    expect(await owner.page.locator("main").textContent()).toContain("Av. Larco");
    await owner.close();
  });
});
