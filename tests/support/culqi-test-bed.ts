/**
 * A seeded database and a local Culqi API for one `describe` whose cases load the server's modules
 * afresh under an environment they stub: the environment is read once per process, so a case that
 * wants another provider sets it and imports again (`stubEnvironmentAfresh`).
 */
import { afterAll, afterEach, beforeAll, vi } from "vitest";
import type { Database } from "@server/db/client";
import { startCulqiMock, type CulqiMock } from "./culqi-mock";
import { createTestDatabase, type TestDatabase } from "./test-database";

export interface CulqiTestBed {
  readonly db: Database;
  readonly culqi: CulqiMock;
  /** The environment that makes Culqi the active provider, speaking to the local API. */
  culqiKeys(): { CULQI_PUBLIC_KEY: string; CULQI_SECRET_KEY: string; CULQI_API_BASE: string };
}

/** Registers the describe's hooks: start both before its cases, forget stubbed variables after each, close both at the end. */
export function culqiTestBed(): CulqiTestBed {
  let test: TestDatabase | undefined;
  let culqi: CulqiMock | undefined;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    culqi = await startCulqiMock();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  afterAll(async () => {
    await culqi?.close();
    await test?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("culqiTestBed is read before its beforeAll ran");
    return value;
  };
  return {
    get db() {
      return started(test).db;
    },
    get culqi() {
      return started(culqi);
    },
    culqiKeys() {
      const { publicKey, secretKey, apiBase } = started(culqi);
      return { CULQI_PUBLIC_KEY: publicKey, CULQI_SECRET_KEY: secretKey, CULQI_API_BASE: apiBase };
    },
  };
}

/** Sets these variables (undefined unsets one) and forgets the loaded modules, so the next import reads them. */
export function stubEnvironmentAfresh(environment: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  vi.resetModules();
}
