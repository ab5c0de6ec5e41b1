import { config } from "zod";

/**
 * Zod 4 probes `new Function` once to speed up object parsing; under the shop's Content-Security-
 * Policy (no 'unsafe-eval', docs/security.md) the browser reports that probe as a violation even
 * though zod catches it. `core/zod.ts`, the one door to zod, imports this first.
 */
config({ jitless: true });
