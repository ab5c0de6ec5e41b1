import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inject } from "vitest";
import { openDatabase } from "@server/db/client";
import { recordRowFailure, rowFailures } from "@server/db/row-failures";
import { siteSettings, subscriptionItems, subscriptionPeriods, subscriptions } from "@server/db/schema";
import { inTransaction, MAX_TRANSACTION_ATTEMPTS } from "@server/db/transaction";
import { sandboxCardProvider } from "@server/payments/cards";
import { renewDueSubscriptions } from "@server/subscriptions/index.server";
import { insertDueSubscriptions } from "../support/due-renewals";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, rowsOf, type TestDatabase } from "../support/test-database";

const onPostgres = inject("databaseTemplates").kind === "postgres";
const noPause = { backoffMs: () => 0 };
/** The retry's log lines among whatever else was warned while console.warn was watched. */
const retryWarnings = () => vi.mocked(console.warn).mock.calls.filter(([line]) => /aborted by PostgreSQL/.test(String(line)));

/** An error as node-postgres and PGlite raise it, wrapped the way Drizzle wraps driver errors. */
function abortedBy(code: string) {
  return Object.assign(new Error("Failed query"), {
    cause: Object.assign(new Error(code === "40P01" ? "deadlock detected" : "could not serialize access"), { code }),
  });
}

describe("inTransaction (decision 0025)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    await test.db.execute(sql`create table retry_probe (id int primary key, note text)`);
    await test.db.execute(sql`insert into retry_probe values (1, 'a'), (2, 'b')`);
  });
  afterAll(() => test.close());

  it.each(["40P01", "40001"])("runs the whole transaction again when PostgreSQL aborts it with %s, and the aborted attempt leaves nothing", async (code) => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const note = async () => rowsOf<{ note: string }>(await test.db.execute(sql`select note from retry_probe where id = 1`))[0]!.note;
    const before = await note();
    let attempts = 0;
    const result = await inTransaction(
      test.db,
      async (tx) => {
        attempts += 1;
        await tx.execute(sql`update retry_probe set note = note || '+' where id = 1`);
        if (attempts === 1) throw abortedBy(code);
        return "done";
      },
      noPause,
    );
    expect(result).toBe("done");
    expect(attempts).toBe(2);
    expect(await note()).toBe(`${before}+`);
    expect(retryWarnings()).toHaveLength(1);
    vi.mocked(console.warn).mockRestore();
  });

  it(`gives up after ${MAX_TRANSACTION_ATTEMPTS} attempts and hands the error to the caller`, async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    let attempts = 0;
    const failing = inTransaction(
      test.db,
      async () => {
        attempts += 1;
        throw abortedBy("40P01");
      },
      noPause,
    );
    await expect(failing).rejects.toThrow("Failed query");
    expect(attempts).toBe(MAX_TRANSACTION_ATTEMPTS);
    expect(retryWarnings()).toHaveLength(1);
    vi.mocked(console.warn).mockRestore();
  });

  it("never runs a transaction again for any other error", async () => {
    let attempts = 0;
    const failing = inTransaction(test.db, async (tx) => {
      attempts += 1;
      await tx.update(siteSettings).set({ brandName: "Otra marca" });
      throw new Error("provider said no");
    });
    await expect(failing).rejects.toThrow("provider said no");
    expect(attempts).toBe(1);
    const [settings] = await test.db.select({ brandName: siteSettings.brandName }).from(siteSettings);
    expect(settings!.brandName).not.toBe("Otra marca");
  });

  it("lets two transactions that lock the same rows crosswise both commit", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    // On PostgreSQL each side has its own connection and they really deadlock: one is aborted and
    // retried. The embedded database runs one transaction at a time, so there they just queue.
    const handles = onPostgres ? await Promise.all([0, 1].map(() => openDatabase({ kind: "postgres", url: test.env.DATABASE_URL! }))) : [];
    const [left, right] = onPostgres ? handles.map((handle) => handle.db) : [test.db, test.db];
    let bothHoldOne: () => void = () => {};
    const firstLocksTaken = onPostgres ? new Promise<void>((resolve) => (bothHoldOne = resolve)) : Promise.resolve();
    let holding = 0;
    const crosswise = (first: number, second: number) => async (tx: Parameters<Parameters<typeof inTransaction>[1]>[0]) => {
      await tx.execute(sql`select id from retry_probe where id = ${first} for update`);
      if ((holding += 1) === 2) bothHoldOne();
      await firstLocksTaken;
      await tx.execute(sql`update retry_probe set note = note || ${String(first)} where id = ${second}`);
    };
    try {
      await Promise.all([inTransaction(left!, crosswise(1, 2), noPause), inTransaction(right!, crosswise(2, 1), noPause)]);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
    const rows = rowsOf<{ id: number; note: string }>(await test.db.execute(sql`select id, note from retry_probe order by id`));
    expect(rows[0]!.note.endsWith("2")).toBe(true);
    expect(rows[1]!.note.endsWith("1")).toBe(true);
    if (onPostgres) {
      // The aborted side retries at once (noPause) and may take its first row again before the other
      // side, woken by the abort, takes it: a second deadlock, again retried. Each retry is a deadlock.
      const warnings = retryWarnings().map(([line]) => String(line));
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      for (const warning of warnings) expect(warning).toMatch(/40P01/);
    }
    vi.mocked(console.warn).mockRestore();
  });
});

describe("the PostgreSQL pool under a burst (issue 27)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("lets a request wait for a busy pool's connection longer than opening a connection may take", async () => {
    // A pool of one connection that must open within 1 s: the second transaction queues for 1.5 s
    // behind the first. The embedded database has no pool; there the two simply run in turn.
    const handle = onPostgres
      ? await openDatabase({
          kind: "postgres",
          url: test.env.DATABASE_URL!,
          timeouts: { connectSeconds: 1, statementSeconds: 10, idleInTransactionSeconds: 60, poolMax: 1 },
        })
      : undefined;
    const db = handle?.db ?? test.db;
    let holding: () => void = () => {};
    const firstHolds = new Promise<void>((resolve) => (holding = resolve));
    try {
      const first = inTransaction(db, async (tx) => {
        holding();
        await tx.execute(sql`select pg_sleep(1.5)`);
        return "first";
      });
      await firstHolds;
      const second = inTransaction(db, async (tx) => rowsOf<{ answer: string }>(await tx.execute(sql`select 'second' as answer`))[0]!.answer);
      expect(await Promise.all([first, second])).toEqual(["first", "second"]);
    } finally {
      await handle?.close();
    }
  });
});

/** Five subscriptions due at `now` (the bench's), in id order. */
async function fiveDueSubscriptions(db: TestDatabase["db"], now: Date) {
  await insertDueSubscriptions(db, now, 5);
  return db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(sql`${subscriptions.userId} like 'bench-user-%'`)
    .orderBy(subscriptions.id);
}

describe("job row failures (decision 0025)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("keeps one line per job and row, counting how often it failed", async () => {
    expectConsoleError(/Job renewals could not handle sub-1/);
    const first = new Date("2026-11-24T15:00:00Z");
    const later = new Date("2026-11-24T15:05:00Z");
    await recordRowFailure(test.db, "renewals", "sub-1", new Error("boom"), first);
    await recordRowFailure(test.db, "renewals", "sub-1", new TypeError("boom again"), later);
    const lines = await rowFailures(test.db, "renewals");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ rowId: "sub-1", failures: 2, message: "TypeError: boom again", firstFailedAt: first, lastFailedAt: later });
  });

  it("goes on renewing the others when one subscription's renewal throws, and the next pass completes it once", async () => {
    const now = new Date("2026-11-24T15:00:00Z");
    const due = await fiveDueSubscriptions(test.db, now);
    const broken = due[2]!.id;
    // Its lines are gone: the charge goes through but the renewal order cannot be written.
    const lines = await test.db.delete(subscriptionItems).where(eq(subscriptionItems.subscriptionId, broken)).returning();
    expectConsoleError(new RegExp(`Job renewals could not handle ${broken}`));
    const options = (at: Date) => ({ now: at, siteUrl: "http://shop.test", cardsFor: () => sandboxCardProvider(test.db) });

    const first = await renewDueSubscriptions(test.db, options(now));
    expect(first).toMatchObject({ charged: 4, failed: 1 });
    expect((await rowFailures(test.db, "renewals")).map((line) => line.rowId)).toContain(broken);
    const [stuck] = await test.db
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, broken), eq(subscriptionPeriods.periodNumber, 2)));
    expect(stuck!.status).toBe("charging");

    // Repaired, and later than a charge can take: the reconciler finds the charge by its key.
    await test.db.insert(subscriptionItems).values(lines.map(({ id: _id, ...line }) => line));
    const second = await renewDueSubscriptions(test.db, options(new Date(now.getTime() + 10 * 60_000)));
    expect(second).toMatchObject({ reconciled: 1, charged: 0, failed: 0 });
    const [paid] = await test.db
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, broken), eq(subscriptionPeriods.periodNumber, 2)));
    expect(paid!.status).toBe("paid");
    const charges = rowsOf<{ n: number }>(await test.db.execute(sql`select count(*)::int as n from sandbox_charges where charge_key like ${`${broken}:2:%`}`));
    expect(charges[0]!.n).toBe(1);
  });
});

describe("the renewal claim's row-by-row fallback (decision 0046)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("claims the batch row by row when a set-based statement fails, so only the bad row is left for the next pass", async () => {
    const now = new Date("2026-11-24T15:00:00Z");
    const due = await fiveDueSubscriptions(test.db, now);
    const broken = due[3]!.id;
    // The database refuses this subscription's new period: the batch's one insert of all five
    // periods fails, and the row-by-row retry fails for this row alone.
    await test.db.execute(
      sql.raw(`create function refuse_one_period() returns trigger language plpgsql as $$
        begin if new.subscription_id = '${broken}' then raise exception 'period refused by the test'; end if; return new; end $$`),
    );
    await test.db.execute(sql`create trigger refuse_one_period before insert on subscription_periods for each row execute function refuse_one_period()`);
    expectConsoleError(new RegExp(`Job renewals could not handle ${broken}`));
    const options = (at: Date) => ({ now: at, siteUrl: "http://shop.test", cardsFor: () => sandboxCardProvider(test.db) });

    expect(await renewDueSubscriptions(test.db, options(now))).toMatchObject({ charged: 4, failed: 1 });
    expect((await rowFailures(test.db, "renewals")).map((line) => line.rowId)).toEqual([broken]);
    const periodsOfBroken = await test.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, broken));
    expect(periodsOfBroken.map((period) => period.periodNumber)).toEqual([1]);

    await test.db.execute(sql`drop trigger refuse_one_period on subscription_periods`);
    expect(await renewDueSubscriptions(test.db, options(now))).toMatchObject({ charged: 1, failed: 0 });
    const charges = rowsOf<{ key: string }>(
      await test.db.execute(sql`select charge_key as key from sandbox_charges where split_part(charge_key, ':', 2) = '2'`),
    );
    expect(charges.map((charge) => charge.key.split(":")[0]).sort()).toEqual(due.map((row) => row.id).sort());
  });
});
