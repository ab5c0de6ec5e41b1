import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_CUSTOMER, registerCustomer, uniqueEmail } from "../support/accounts";
import { sharedShop } from "../support/shared-shop";
import { startShopServer, type ShopServer } from "../support/shop-server";

/**
 * Sign-in limits over HTTP against the real server, where the client address is decided
 * (scripts/serve.mjs → server/config/client-address.ts). No browser: plain form posts.
 */
async function postLogin(baseURL: string, email: string, password: string, forwardedFor?: string) {
  const response = await fetch(`${baseURL}/login`, {
    method: "POST",
    headers: {
      Origin: baseURL,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}),
    },
    body: new URLSearchParams({ email, password }),
    redirect: "manual",
  });
  const body = await response.text();
  if (response.status === 302) return "signed-in";
  if (body.includes("Demasiados intentos")) return "throttled";
  if (body.includes("Correo o contraseña incorrectos")) return "wrong-password";
  throw new Error(`unexpected answer ${response.status}`);
}

describe("sign-in limits over HTTP", () => {
  describe("behind a trusted proxy (TRUST_PROXY=true, per-client limits unscaled)", () => {
    let shop: ShopServer;
    beforeAll(async () => {
      shop = await startShopServer({
        templates: inject("databaseTemplates"),
        env: { TRUST_PROXY: "true", CLIENT_RATE_LIMIT_FACTOR: "1", JOBS_INTERVAL_SECONDS: "0" },
      });
    });
    afterAll(() => shop?.stop());

    it("lets forty successful sign-ins from one address in a few minutes all in", async () => {
      const answers = [];
      for (let signIn = 0; signIn < 40; signIn += 1) answers.push(await postLogin(shop.baseURL, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, "203.0.113.40"));
      expect(answers).toEqual(Array(40).fill("signed-in"));
    });

    it("does not let a client dodge the per-client limit by rotating the X-Forwarded-For entries it writes", async () => {
      // The proxy (this test, on loopback) appends the address it saw; the attacker rotates the rest.
      const answers: string[] = [];
      for (let guess = 0; guess < 36 && !answers.includes("throttled"); guess += 1) {
        answers.push(await postLogin(shop.baseURL, uniqueEmail("nadie"), "Equivocada1", `198.51.100.${guess}, 203.0.113.66`));
      }
      // Thirty free failures for one client, then it must wait (2 s, then twice as long each time).
      expect(answers.indexOf("throttled")).toBeGreaterThanOrEqual(30);
      expect(answers).toContain("throttled");
      // Another client behind the same proxy is not affected.
      expect(await postLogin(shop.baseURL, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, "203.0.113.67")).toBe("signed-in");
    });
  });

  describe("without TRUST_PROXY", () => {
    const baseURL = () => sharedShop().baseURL;

    it("ignores X-Forwarded-For: rotating it does not make the guesser a new client", async () => {
      const { email, password } = await registerCustomer(baseURL());
      for (let guess = 0; guess < 5; guess += 1) expect(await postLogin(baseURL(), email, "Equivocada1", `198.51.100.${guess}`)).toBe("wrong-password");
      expect(await postLogin(baseURL(), email, password, "198.51.100.99")).toBe("throttled");
    });
  });
});
