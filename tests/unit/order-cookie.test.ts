import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { orderCookie, orderCookieHeader } from "~/server/order-cookie.server";

describe("the order cookie (spec §3)", () => {
  it("is written by checkout exactly as React Router's signed cookie would write it, and read back by it", async () => {
    for (const orderId of [randomUUID(), randomUUID(), randomUUID()]) {
      const header = orderCookieHeader(orderId);
      expect(header).toBe(await orderCookie().serialize(orderId));
      expect(await orderCookie().parse(header.split(";")[0]!)).toBe(orderId);
    }
  });

  it("is not accepted with another order's id", async () => {
    const [name, value] = orderCookieHeader(randomUUID()).split(";")[0]!.split("=");
    const [, signature] = decodeURIComponent(value!).split(".");
    const forged = `${Buffer.from(JSON.stringify(randomUUID())).toString("base64")}.${signature}`;
    expect(await orderCookie().parse(`${name}=${encodeURIComponent(forged)}`)).toBeNull();
  });
});
