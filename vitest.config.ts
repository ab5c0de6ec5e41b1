import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const alias = {
  "~": fileURLToPath(new URL("./app", import.meta.url)),
  "@server": fileURLToPath(new URL("./server", import.meta.url)),
  "@core": fileURLToPath(new URL("./core", import.meta.url)),
};

/**
 * The reliability scenarios that need a PostgreSQL server of their own or two processes on one
 * database: they are part of the suite only when DATABASE_URL is set (CI's PostgreSQL pass).
 */
const postgresOnlyReliability = [
  "tests/reliability/postgres-outage.test.ts",
  "tests/reliability/two-processes.test.ts",
  "tests/reliability/content-invalidation.test.ts",
  "tests/reliability/whatsapp-two-processes.test.ts",
  "tests/reliability/silent-database.test.ts",
  "tests/reliability/shared-media.test.ts",
  "tests/reliability/backup-restore.test.ts",
];

/**
 * Jobs run in the test processes (runDueJobs) include the media sweep (decision 0065): it must
 * never walk the developer's own .data/uploads with a test database that names none of its files.
 * A folder of this run's own, never created unless a test writes there.
 */
const testUploads = { UPLOADS_DIR: path.join(tmpdir(), `shop-test-uploads-${process.pid}`) };

/**
 * Four suites: pure rules (unit), domains against a real database (db), user journeys in real
 * Chromium against the real server (e2e), and faults the server must survive (reliability).
 * `npm test` runs all four; CI runs db, e2e and reliability a second time against PostgreSQL.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          // One worker process runs many files, each with fresh shop modules (decision 0068).
          isolate: false,
          setupFiles: ["tests/support/fresh-modules.ts", "tests/support/fail-on-console-error.ts"],
          // Runs beside db, with the same two workers (Vitest asks one worker count per group).
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "db",
          include: ["tests/integration/**/*.test.ts"],
          // Vitest's default is one worker less than the cores (one, here). Each file has a database
          // of its own, so two run at once (decision 0056).
          maxWorkers: 2,
          // Each worker runs many files instead of a new process per file: starting the process and
          // loading drizzle, pg and PGlite again cost ~1.7 s of CPU per file. fresh-modules.ts still
          // gives every file fresh instances of the shop's modules (decision 0068).
          isolate: false,
          sequence: { groupOrder: 0 },
          // Domains are tested against the database itself; the read cache has its own test.
          env: { STOREFRONT_CACHE_SECONDS: "0", ...testUploads },
          globalSetup: ["tests/support/global-setup.ts"],
          setupFiles: ["tests/support/fresh-modules.ts", "tests/support/fail-on-console-error.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // Issue 15: many workers on the same rows at once; sized for PostgreSQL, smaller on PGlite.
          name: "stress",
          include: ["tests/stress/**/*.test.ts"],
          env: { STOREFRONT_CACHE_SECONDS: "0", ...testUploads },
          globalSetup: ["tests/support/global-setup.ts"],
          setupFiles: ["tests/support/fail-on-console-error.ts"],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          env: testUploads,
          globalSetup: ["tests/support/global-setup.ts", "tests/support/e2e-global-setup.ts"],
          // One worker process runs many files, each with fresh shop modules (decision 0068, as db):
          // a process per file loaded playwright-core, drizzle and PGlite again for every file.
          isolate: false,
          setupFiles: ["tests/support/fresh-modules.ts", "tests/support/fail-on-server-error.ts", "tests/support/fail-on-page-error.ts"],
          // Two files at once, each worker with a shared server of its own (shared-shop.ts): one
          // file left a core mostly idle (a browser test waits on its page and its server in turn).
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page read polled with expect.poll waits on the page and its server like a locator does:
          // Vitest's default of 1 s failed on a loaded CI machine while the next page was rendering.
          expect: { poll: { timeout: 20_000, interval: 100 } },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "reliability",
          include: ["tests/reliability/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...(process.env.DATABASE_URL ? [] : postgresOnlyReliability)],
          env: testUploads,
          globalSetup: ["tests/support/global-setup.ts", "tests/support/reliability-global-setup.ts"],
          // Each file runs its own servers: one file at a time on two cores.
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
