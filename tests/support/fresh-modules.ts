/**
 * The first setup file of the projects that run their files in one long-lived worker
 * (`isolate: false`, decision 0068): every test file starts from fresh instances of the shop's
 * modules, as it did in a process of its own, so module state (the parsed environment, cached
 * provider clients, counters) never carries from one file to the next. What is kept is what cost
 * the time: the worker process and the packages Node already loaded (drizzle, pg, PGlite…).
 * Setup files are re-run before each file; Vitest's own modules are left alone by the reset.
 */
import { vi } from "vitest";

vi.resetModules();
