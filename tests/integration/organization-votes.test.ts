import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countVotes, countVotesForPublicPage, findVoteOf, listOrganizations, voteForOrganization } from "@server/content/index.server";
import type { Database } from "@server/db/index.server";
import { overrideReadCacheTtl } from "@server/db/read-cache";
import { organizationVotes, users } from "@server/db/schema";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-23T15:00:00Z");

async function newCustomer(db: Database, email: string): Promise<string> {
  const id = `user-${email}`;
  await db.insert(users).values({ id, name: "Rosa Quispe", email, emailVerified: true, firstName: "Rosa", lastName: "Quispe" });
  return id;
}

describe("organisation votes", () => {
  let test: TestDatabase;
  let organizationIds: number[];
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    organizationIds = (await listOrganizations(test.db)).map((organization) => organization.id);
  });
  afterAll(() => test.close());

  it("counts one vote per customer, however often they vote for the same organisation", async () => {
    const [first] = organizationIds;
    const rosa = await newCustomer(test.db, "rosa@prueba.pe");
    const before = (await countVotes(test.db))[first!] ?? 0;
    expect(await voteForOrganization(test.db, { userId: rosa, organizationId: first!, now })).toEqual({ ok: true, organizationId: first });
    expect(await voteForOrganization(test.db, { userId: rosa, organizationId: first!, now })).toEqual({ ok: true, organizationId: first });
    await Promise.all([0, 1, 2].map(() => voteForOrganization(test.db, { userId: rosa, organizationId: first!, now })));
    expect((await countVotes(test.db))[first!]).toBe(before + 1);
    expect(await test.db.select().from(organizationVotes).where(eq(organizationVotes.userId, rosa))).toHaveLength(1);
    expect(await findVoteOf(test.db, rosa)).toBe(first);
  });

  it("moves the customer's vote when they change it: one less for the old organisation, one more for the new", async () => {
    const [first, second] = organizationIds;
    const luis = await newCustomer(test.db, "luis@prueba.pe");
    await voteForOrganization(test.db, { userId: luis, organizationId: first!, now });
    const before = await countVotes(test.db);
    const later = new Date(now.getTime() + 60_000);
    expect(await voteForOrganization(test.db, { userId: luis, organizationId: second!, now: later })).toEqual({ ok: true, organizationId: second });
    const after = await countVotes(test.db);
    expect(after[first!] ?? 0).toBe((before[first!] ?? 0) - 1);
    expect(after[second!]).toBe((before[second!] ?? 0) + 1);
    expect(await findVoteOf(test.db, luis)).toBe(second);
    const [row] = await test.db.select().from(organizationVotes).where(eq(organizationVotes.userId, luis));
    expect(row).toMatchObject({ organizationId: second, createdAt: now, updatedAt: later });
  });

  it("refuses an organisation that does not exist and keeps the customer's earlier vote", async () => {
    const [, , third] = organizationIds;
    const ana = await newCustomer(test.db, "ana@prueba.pe");
    expect(await voteForOrganization(test.db, { userId: ana, organizationId: 999_999, now })).toEqual({ ok: false, reason: "unknown_organization" });
    expect(await findVoteOf(test.db, ana)).toBeNull();
    await voteForOrganization(test.db, { userId: ana, organizationId: third!, now });
    const before = await countVotes(test.db);
    expect(await voteForOrganization(test.db, { userId: ana, organizationId: 999_999, now })).toEqual({ ok: false, reason: "unknown_organization" });
    expect(await findVoteOf(test.db, ana)).toBe(third);
    expect(await countVotes(test.db)).toEqual(before);
  });

  it("counts every organisation's votes, and none for a customer who never voted", async () => {
    const [first, second, third, fourth] = organizationIds;
    await test.db.delete(organizationVotes);
    const voters = await Promise.all(["v1", "v2", "v3", "v4", "v5"].map((name) => newCustomer(test.db, `${name}@prueba.pe`)));
    const choices = [first, first, first, second, third];
    for (const [index, userId] of voters.entries()) await voteForOrganization(test.db, { userId, organizationId: choices[index]!, now });
    expect(await countVotes(test.db)).toEqual({ [first!]: 3, [second!]: 1, [third!]: 1 });
    expect((await countVotes(test.db))[fourth!]).toBeUndefined();
    expect(await findVoteOf(test.db, await newCustomer(test.db, "nadie@prueba.pe"))).toBeNull();
  });

  it("gives the public page counts from the storefront cache, and the voter fresh ones", async () => {
    const [first] = organizationIds;
    overrideReadCacheTtl(60_000);
    try {
      const cached = await countVotesForPublicPage(test.db);
      await voteForOrganization(test.db, { userId: await newCustomer(test.db, "cache@prueba.pe"), organizationId: first!, now });
      expect(await countVotesForPublicPage(test.db)).toEqual(cached);
      expect((await countVotes(test.db))[first!]).toBe((cached[first!] ?? 0) + 1);
    } finally {
      overrideReadCacheTtl(null);
    }
  });
});
