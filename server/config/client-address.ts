import { BlockList, isIPv4, isIPv6 } from "node:net";

/**
 * Which hops in front of the server may speak for the client (TRUST_PROXY, docs/decisions/0029).
 * `none`: the socket address is the client and X-Forwarded-For is ignored. `hops`: the nearest N
 * hops are proxies, whatever their address. `addresses`: hops whose address is in the list are.
 */
export type TrustProxy = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "addresses"; list: BlockList; entries: string[] };

/** Named ranges, as Express (proxy-addr) spells them, so one value configures both. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/**
 * `true` trusts proxies on this machine or a private network (loopback, link-local, private
 * ranges), never "whoever connects": a client reaching the server directly from the internet
 * cannot name its own address.
 */
export const TRUST_TRUE_MEANS = ["loopback", "linklocal", "uniquelocal"];

/** Parses TRUST_PROXY; a string result is the reason it is invalid. */
export function parseTrustProxy(value: string | undefined): TrustProxy | string {
  const raw = (value ?? "").trim().toLowerCase();
  if (raw === "" || raw === "false") return { kind: "none" };
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) return "a hop count must be between 0 and 10";
    return hops === 0 ? { kind: "none" } : { kind: "hops", hops };
  }
  const entries =
    raw === "true"
      ? TRUST_TRUE_MEANS
      : raw
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean);
  const list = new BlockList();
  for (const entry of entries) {
    for (const range of NAMED_RANGES[entry] ?? [entry]) {
      const problem = addRange(list, range);
      if (problem) return `${problem} (expected true, false, a hop count, or a comma-separated list of IPs, CIDRs, loopback, linklocal, uniquelocal)`;
    }
  }
  return { kind: "addresses", list, entries };
}

function addRange(list: BlockList, range: string): string | undefined {
  const [address = "", prefixText] = range.split("/");
  const type = isIPv4(address) ? "ipv4" : isIPv6(address) ? "ipv6" : undefined;
  if (!type) return `"${range}" is not an IP address or CIDR range`;
  if (prefixText === undefined) {
    list.addAddress(address, type);
    return undefined;
  }
  const prefix = /^\d+$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= (type === "ipv4" ? 32 : 128))) return `"${range}" has an invalid prefix length`;
  list.addSubnet(address, prefix, type);
  return undefined;
}

/**
 * The one place the client's address is decided (per-client limits key on it). Walks from the
 * socket outwards through X-Forwarded-For, right to left, past hops that are trusted proxies, and
 * returns the first address that is not one: every entry left of it was written by someone we do
 * not trust, so rotating them changes nothing. Without trusted proxies X-Forwarded-For is ignored.
 */
export function clientAddressFrom(hops: { socket: string | null | undefined; forwardedFor: string | null | undefined }, trust: TrustProxy): string {
  const socket = normalizeAddress(hops.socket ?? "") ?? "unknown";
  if (trust.kind === "none") return socket;
  const forwarded = (hops.forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .reverse();
  let client = socket;
  for (let index = 0; ; index += 1) {
    if (!isTrustedHop(client, index, trust)) return client;
    const next = forwarded[index];
    if (next === undefined) return client;
    const address = normalizeAddress(next);
    // A trusted proxy passed on something that is not an address: believe nothing beyond it.
    if (!address) return client;
    client = address;
  }
}

function isTrustedHop(address: string, index: number, trust: Exclude<TrustProxy, { kind: "none" }>): boolean {
  if (trust.kind === "hops") return index < trust.hops;
  if (isIPv4(address)) return trust.list.check(address, "ipv4");
  if (isIPv6(address)) return trust.list.check(address, "ipv6");
  return false;
}

/** An IP without port, brackets or IPv4-mapped prefix; undefined when it is not an IP. */
export function normalizeAddress(value: string): string | undefined {
  let address = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  address = address.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1]!;
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return address.toLowerCase();
  return undefined;
}

/**
 * What per-client limits count under: the address itself, or for IPv6 its /64, which one
 * subscriber usually holds whole and could otherwise rotate through for free.
 */
export function clientLimitKey(address: string): string {
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(":")}::/64`;
}
