import { describe, expect, it } from "vitest";
import { parseEnv } from "@server/config/env";
import { flowAmount, flowSignature, flowStringToSign, signFlowParams } from "@server/payments/flow/client";

/** HMAC-SHA256 hex values computed outside the shop, with `openssl dgst -sha256 -hmac SECRET-KEY-123`. */
const SECRET = "SECRET-KEY-123";

describe("Flow request signing (flow-openapi.yaml, ¿Cómo firmar con su SecretKey?)", () => {
  it("concatenates the parameters sorted by name as name + value, exactly as Flow's example", () => {
    expect(flowStringToSign({ apiKey: "XXXX-XXXX-XXXX", currency: "CLP", amount: "5000" })).toBe("amount5000apiKeyXXXX-XXXX-XXXXcurrencyCLP");
  });

  it("signs that string with HMAC-SHA256 of the secret key, in hex", () => {
    expect(flowSignature({ apiKey: "XXXX-XXXX-XXXX", currency: "CLP", amount: "5000" }, SECRET)).toBe(
      "7f88fc56d8f598867c3ec17f10e6a2c36a3ee5448e423742ac0af5bd6db2069f",
    );
    // The PHP example's parameters: apiKey and token.
    expect(flowSignature({ token: "AJ089FF5467367", apiKey: "1F90971E-8276-4715-97FF-2BLG5030EE3B" }, SECRET)).toBe(
      "df04948fb7aa1820afbab66880ac8cfd810fc082ea7c5a3a8f2924e32801e778",
    );
  });

  it("leaves the signature parameter s out of what it signs", () => {
    expect(flowStringToSign({ s: "anything", apiKey: "XXXX-XXXX-XXXX", currency: "CLP", amount: "5000" })).toBe("amount5000apiKeyXXXX-XXXX-XXXXcurrencyCLP");
  });

  it("sends apiKey with every request, drops unset values, writes numbers as text and appends s", () => {
    const signed = signFlowParams({ amount: 5000, currency: "CLP", optionals: undefined }, { apiKey: "XXXX-XXXX-XXXX", secretKey: SECRET });
    expect(signed).toEqual({
      apiKey: "XXXX-XXXX-XXXX",
      amount: "5000",
      currency: "CLP",
      s: "7f88fc56d8f598867c3ec17f10e6a2c36a3ee5448e423742ac0af5bd6db2069f",
    });
  });

  it("sends amounts in soles with two decimals, from the shop's céntimos", () => {
    expect(flowAmount(5700)).toBe("57.00");
    expect(flowAmount(61_205)).toBe("612.05");
  });
});

describe("Flow configuration", () => {
  const keys = { FLOW_API_KEY: "1F90971E-8276-4715-97FF-2BLG5030EE3B", FLOW_SECRET_KEY: "0123456789abcdef0123456789abcdef" };

  it("talks to Flow's production API unless told otherwise", () => {
    expect(parseEnv(keys)).toMatchObject({ ...keys, FLOW_API_BASE: "https://www.flow.cl/api" });
    expect(parseEnv({ ...keys, FLOW_API_BASE: "https://sandbox.flow.cl/api" }).FLOW_API_BASE).toBe("https://sandbox.flow.cl/api");
  });

  it("refuses one Flow key without the other, naming the missing one", () => {
    expect(() => parseEnv({ FLOW_API_KEY: keys.FLOW_API_KEY })).toThrow(/- FLOW_SECRET_KEY: Flow needs both/);
    expect(() => parseEnv({ FLOW_SECRET_KEY: keys.FLOW_SECRET_KEY })).toThrow(/- FLOW_API_KEY: Flow needs both/);
  });

  it("refuses a malformed key or base URL", () => {
    expect(() => parseEnv({ ...keys, FLOW_SECRET_KEY: "short" })).toThrow(/FLOW_SECRET_KEY/);
    expect(() => parseEnv({ ...keys, FLOW_API_BASE: "flow.cl/api" })).toThrow(/FLOW_API_BASE/);
  });
});
