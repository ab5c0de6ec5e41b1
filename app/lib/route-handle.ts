import type { UIMatch } from "react-router";

/** Whether a matched route's `handle` sets `key` to `value` (`handle = { discoverLinks: "none" }`). */
export function handleSays(matches: UIMatch[], key: string, value: unknown = true): boolean {
  return matches.some((match) => (match.handle as Record<string, unknown> | undefined)?.[key] === value);
}
