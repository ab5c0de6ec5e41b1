import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getSignedInUser, register, signOut, updateProfile } from "@server/accounts/index.server";
import { sessions, users } from "@server/db/schema";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/** A request carrying the cookies better-auth set, as the browser would send them back. */
function requestWith(headers: Headers, extraCookie = ""): Request {
  const cookie = [...headers.getSetCookie().map((header) => header.split(";")[0]), ...(extraCookie ? [extraCookie] : [])].join("; ");
  return new Request("http://localhost/dashboard", { headers: { cookie } });
}

async function signedUp(test: TestDatabase, email: string): Promise<Headers> {
  const result = await register(test.db, { firstName: "Lucía", lastName: "Mamani", email, password: "Agua1234", client: `cache-${email}` });
  if (!result.ok) throw new Error(result.message);
  return result.headers;
}

// Issue 13, docs/decisions/0047: a verified session is remembered for SIGNED_IN_CACHE_MS in this
// process; what ends or changes it here is seen on the very next request.
describe("signed-in customer cache", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => {
    vi.useRealTimers();
    return test.close();
  });

  it("answers a session's requests from memory for a few seconds, then asks the database again", async () => {
    const headers = await signedUp(test, "cache@prueba.pe");
    expect((await getSignedInUser(test.db, requestWith(headers)))?.email).toBe("cache@prueba.pe");
    // Another process ends the session (its row goes): this process still knows it, within the bound…
    await test.db.delete(sessions).where(eq(sessions.userId, (await getSignedInUser(test.db, requestWith(headers)))!.id));
    expect((await getSignedInUser(test.db, requestWith(headers, "_ga=GA1.1.1")))?.email).toBe("cache@prueba.pe");
    // …and no longer once it has passed.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_001);
    expect(await getSignedInUser(test.db, requestWith(headers))).toBeNull();
    vi.useRealTimers();
  });

  it("forgets a session at once when it signs out, and a changed name at once", async () => {
    const headers = await signedUp(test, "salida@prueba.pe");
    const user = await getSignedInUser(test.db, requestWith(headers));
    expect(user?.fullName).toBe("Lucía Mamani");
    await updateProfile(test.db, user!.id, {
      firstName: "Lucía",
      lastName: "Torres",
      documentType: null,
      documentNumber: null,
      phone: null,
      address: null,
      districtId: null,
    });
    expect((await getSignedInUser(test.db, requestWith(headers)))?.fullName).toBe("Lucía Torres");
    await signOut(test.db, requestWith(headers));
    expect(await getSignedInUser(test.db, requestWith(headers))).toBeNull();
  });

  it("never takes a cookie with a forged signature for a remembered one", async () => {
    const headers = await signedUp(test, "firma@prueba.pe");
    expect(await getSignedInUser(test.db, requestWith(headers))).not.toBeNull();
    const [token] = headers.getSetCookie().map((header) => header.split(";")[0]!);
    const forged = new Request("http://localhost/dashboard", { headers: { cookie: `${token!.slice(0, -3)}AAA` } });
    expect(await getSignedInUser(test.db, forged)).toBeNull();
    const [row] = await test.db.select({ status: users.status }).from(users).where(eq(users.email, "firma@prueba.pe"));
    expect(row?.status).toBe("active");
  });
});
