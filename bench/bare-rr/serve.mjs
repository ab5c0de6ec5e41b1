#!/usr/bin/env node
// The bare React Router page served as the shop's scripts/serve.mjs serves the shop: Express,
// compression level 4, fingerprinted assets for a year, the Fetch request handler, and the same
// Express→Fetch translation. No page cache: the bare page has no database to spare.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "react-router";

const root = import.meta.dirname;
const build = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
const handleRequest = createRequestHandler(build, "production");
const app = express();
app.disable("x-powered-by");
app.use(compression({ level: 4 }));
app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
const publicFiles = express.static(path.join(root, "build/client"), { maxAge: "1h", index: false, redirect: false });
app.use((request, response, next) => (path.extname(request.path) ? publicFiles(request, response, next) : next()));
app.all("*", async (request, response, next) => {
  try {
    const url = new URL(`${request.protocol}://${request.get("host") ?? "localhost"}${request.originalUrl}`);
    const headers = new Headers();
    for (const [key, value] of Object.entries(request.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(key, item);
      else if (value !== undefined) headers.set(key, value);
    }
    const controller = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) controller.abort();
    });
    const init = { method: request.method, headers, signal: controller.signal };
    if (request.method !== "GET" && request.method !== "HEAD") Object.assign(init, { body: createReadableStreamFromReadable(request), duplex: "half" });
    const fetchResponse = await handleRequest(new Request(url, init));
    response.status(fetchResponse.status);
    for (const [key, value] of fetchResponse.headers.entries()) {
      if (key === "set-cookie") response.append(key, value);
      else response.setHeader(key, value);
    }
    if (!fetchResponse.body) return void response.end();
    await writeReadableStreamToWritable(fetchResponse.body, response);
  } catch (error) {
    next(error);
  }
});
const port = Number(process.env.PORT ?? 3200);
app.listen(port, process.env.HOST ?? "127.0.0.1", () => console.log(`Bare React Router page on http://${process.env.HOST ?? "127.0.0.1"}:${port}`));
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => process.exit(0));
