#!/usr/bin/env node
// `npm run db:migrate` and `npm run jobs:run`: the bundled command from build/cli/ (built with the
// app; rebuilt here when sources changed and the dev tools are installed), run with plain Node.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildIfStale, projectRoot } from "./build-if-stale.mjs";

const [name] = process.argv.splice(2, 1);
const entry = path.join(projectRoot, "build/cli", `${name}.mjs`);
const devToolsInstalled = existsSync(path.join(projectRoot, "node_modules/.bin/react-router"));
if (devToolsInstalled) buildIfStale({ quiet: true });
if (!existsSync(entry)) {
  console.error(`No build of "${name}" in build/cli: run \`npm run build\` first.`);
  process.exit(1);
}
await import(pathToFileURL(entry).href);
