import { spawnSync } from "node:child_process";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeErrorSafely } from "@server/db/index.server";
import { users } from "@server/db/schema";
import { updateProfile } from "@server/accounts/index.server";
import { DEMO_CUSTOMER } from "@server/db/seed/demo-accounts";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Issue 9: a failed query's log line carries its SQLSTATE and statement, never the customer's
 * data that went into it (Drizzle puts every parameter in its message; PostgreSQL quotes values).
 */
describe("logging a failed query", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  const pii = { firstName: "Rosa", lastName: "Quispe Huamán", phone: "987654321", documentNumber: "44556677", address: "Av. Los Próceres 742, dpto 301" };

  async function failure(run: () => Promise<unknown>): Promise<unknown> {
    try {
      await run();
    } catch (error) {
      return error;
    }
    throw new Error("the query did not fail");
  }

  it("leaves out the parameters of a failed write and keeps the SQLSTATE and statement", async () => {
    const [customer] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    // A NUL byte makes PostgreSQL refuse the whole statement, with every other value as a parameter.
    const error = await failure(() => updateProfile(test.db, customer!.id, { ...pii, address: `${pii.address}\u0000`, documentType: "dni", districtId: null }));
    const line = describeErrorSafely(error);
    expect(line).toMatch(/SQLSTATE (22021|22P05)/);
    expect(line).toMatch(/update "users"/i);
    for (const value of Object.values(pii)) expect(line).not.toContain(value);
    expect(String((error as Error).message)).toContain(pii.address.slice(0, 10)); // what used to be logged
  });

  it("leaves out the value PostgreSQL quotes in its own message and detail", async () => {
    const email = "rosa.quispe@correo.pe";
    const error = await failure(() => test.db.execute(sql`select ${email}::uuid`));
    const line = describeErrorSafely(error);
    expect(line).toContain("SQLSTATE 22P02");
    expect(line).not.toContain(email);
    const duplicate = await failure(() =>
      test.db.insert(users).values({
        id: "dup-user",
        name: "Rosa",
        email: DEMO_CUSTOMER.email,
        emailVerified: true,
        firstName: "Rosa",
        lastName: "Quispe",
        createdAt: new Date(),
        updatedAt: new Date(),
      } as never),
    );
    const duplicateLine = describeErrorSafely(duplicate);
    expect(duplicateLine).toContain("SQLSTATE 23505");
    expect(duplicateLine).not.toContain(DEMO_CUSTOMER.email);
  });

  it("makes a process's stderr log-safe once it opens the database, for errors that wrap a failed query too", async () => {
    // A process of its own, as the server or the jobs CLI: it opens a database, a query with a
    // customer's address fails, and the error is logged the way routes and jobs log them.
    const script = `
      import { sql } from "drizzle-orm";
      import { openDatabase } from "./server/db/client.ts";
      const handle = await openDatabase({ kind: "pglite", dataDir: "memory://" });
      try { await handle.db.execute(sql\`select \${process.env.ADDRESS}::int\`); }
      catch (error) { console.error("Profile update failed", new Error("saving the profile", { cause: error })); console.warn(error); }
      await handle.close();
    `;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: process.cwd(),
      env: { ...process.env, ADDRESS: pii.address },
      encoding: "utf8",
    });
    expect(child.status, child.stderr).toBe(0);
    expect(child.stderr).toContain("Profile update failed");
    expect(child.stderr).toContain("SQLSTATE 22P02");
    expect(child.stderr).toContain("select $1::int");
    expect(child.stderr).not.toContain(pii.address);
    expect(child.stderr).not.toContain("params:");
    // A whole process that migrates an embedded database from nothing: on a loaded CI machine that
    // alone has taken 30 s, so it gets the room a process start needs.
  }, 120_000);
});
