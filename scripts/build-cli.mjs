// Bundles the operator commands (`db:migrate`, `jobs:run`) into build/cli/, so production runs them
// with plain Node and the production dependencies only (issue 13); packages stay external and are
// loaded from node_modules like the server build's. Run by `npm run build` and by buildIfStale.
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

export const CLI_ENTRIES = { migrate: "server/db/cli/migrate.ts", jobs: "server/jobs/cli.ts", "media-migrate": "server/media/cli.ts" };

export async function buildCli() {
  await build({
    entryPoints: Object.fromEntries(Object.entries(CLI_ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir: path.join(root, "build/cli"),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildCli();
