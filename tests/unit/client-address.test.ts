import { describe, expect, it } from "vitest";
import { clientAddressFrom, clientLimitKey, parseTrustProxy, type TrustProxy } from "@server/config/client-address";
import { InvalidEnvironmentError, parseEnv } from "@server/config/env";

function trust(value: string): TrustProxy {
  const parsed = parseTrustProxy(value);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

describe("client address", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY names proxies", () => {
    expect(clientAddressFrom({ socket: "203.0.113.5", forwardedFor: "198.51.100.1" }, trust(""))).toBe("203.0.113.5");
    expect(clientAddressFrom({ socket: "127.0.0.1", forwardedFor: "198.51.100.1" }, trust("false"))).toBe("127.0.0.1");
  });

  it("takes the first untrusted address from the right, so entries the client wrote change nothing", () => {
    const proxies = trust("10.0.0.0/8, 192.0.2.10");
    for (const spoofed of ["1.1.1.1", "8.8.8.8, 9.9.9.9", "not-an-ip"]) {
      expect(clientAddressFrom({ socket: "10.1.2.3", forwardedFor: `${spoofed}, 203.0.113.7, 192.0.2.10` }, proxies)).toBe("203.0.113.7");
    }
  });

  it("never believes a client that reaches the server directly, even with TRUST_PROXY=true", () => {
    expect(clientAddressFrom({ socket: "203.0.113.7", forwardedFor: "1.2.3.4" }, trust("true"))).toBe("203.0.113.7");
    expect(clientAddressFrom({ socket: "::ffff:127.0.0.1", forwardedFor: "1.2.3.4, 203.0.113.8" }, trust("true"))).toBe("203.0.113.8");
  });

  it("counts hops when TRUST_PROXY is a number", () => {
    expect(clientAddressFrom({ socket: "203.0.113.1", forwardedFor: "6.6.6.6, 198.51.100.2, 198.51.100.3" }, trust("2"))).toBe("198.51.100.2");
    expect(clientAddressFrom({ socket: "203.0.113.1", forwardedFor: "" }, trust("1"))).toBe("203.0.113.1");
  });

  it("stops at an entry that is not an address, and strips ports and IPv4-mapped prefixes", () => {
    expect(clientAddressFrom({ socket: "127.0.0.1", forwardedFor: "1.1.1.1, garbage" }, trust("loopback"))).toBe("127.0.0.1");
    expect(clientAddressFrom({ socket: "127.0.0.1", forwardedFor: "203.0.113.9:5123" }, trust("loopback"))).toBe("203.0.113.9");
    expect(clientAddressFrom({ socket: "127.0.0.1", forwardedFor: "[2001:db8::1]:443" }, trust("loopback"))).toBe("2001:db8::1");
  });

  it("counts an IPv6 client by its /64", () => {
    expect(clientLimitKey("2001:db8:aa:bb:1:2:3:4")).toBe("2001:db8:aa:bb::/64");
    expect(clientLimitKey("2001:db8::9")).toBe("2001:db8:0:0::/64");
    expect(clientLimitKey("203.0.113.9")).toBe("203.0.113.9");
  });

  it("refuses a TRUST_PROXY it cannot read, naming the variable", () => {
    expect(() => parseEnv({ TRUST_PROXY: "yes please" })).toThrow(InvalidEnvironmentError);
    expect(() => parseEnv({ TRUST_PROXY: "10.0.0.0/33" })).toThrow(/TRUST_PROXY/);
    expect(parseEnv({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY.kind).toBe("addresses");
    expect(parseEnv({}).TRUST_PROXY).toEqual({ kind: "none" });
  });
});
