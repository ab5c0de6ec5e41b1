import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, getTableName, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PRODUCT_IMAGES } from "@core/catalog-schemas";
import type { StaffActor } from "@server/audit/index.server";
import { addProductImage, createProduct, removeProductImage } from "@server/catalog/index.server";
import { updateOrganization } from "@server/content/index.server";
import { organizations, productImages, users } from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { runDueJobs } from "@server/jobs/index.server";
import { inTransaction } from "@server/db/transaction";
import { MEDIA_PATH_COLUMNS, prepareUploadedImage, sweepUnusedMedia, writeUploadedImage, type PreparedImage } from "@server/media/index.server";
import { createTestDatabase, rowsOf, type TestDatabase } from "../support/test-database";

const HOUR = 60 * 60 * 1000;
/** A sweep's clock a day and an hour after now: every file written by this test is past the grace period. */
const dayLater = () => new Date(Date.now() + 25 * HOUR);

/**
 * Decision 0065: a refused or failed upload leaves no file; the sweep deletes what no row names
 * once the grace period has passed, and touches nothing else. Each test works in a data folder of
 * its own: `<data>/uploads` is the media folder, its siblings stand for what other domains keep.
 */
describe("uploaded media: nothing left behind (decision 0065)", () => {
  let test: TestDatabase;
  let admin: StaffActor;
  let data: string;
  let uploads: string;
  let shade = 0;
  let slugCount = 0;

  /** A picture no other test uploads (its colour differs), checked and resized but not on disk. */
  const upload = async (): Promise<PreparedImage> => {
    shade += 1;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: shade % 256, g: 90, b: Math.floor(shade / 256) } } })
      .png()
      .toBuffer();
    const prepared = await prepareUploadedImage(new File([png], "foto.png"), uploads);
    if (!prepared.ok) throw new Error(prepared.message);
    return prepared.image;
  };
  const filesOf = (image: PreparedImage) => image.files.map((file) => file.name).sort();
  const onDisk = async () => (await readdir(uploads).catch(() => [] as string[])).sort();
  const productForm = (overrides: Record<string, unknown> = {}) => {
    slugCount += 1;
    return {
      title: `Agua media ${slugCount}`,
      slug: `agua-media-${slugCount}`,
      description: "",
      sku: "",
      weightLabel: "",
      dimensionsLabel: "",
      priceCents: "9.90",
      sortOrder: "",
      active: true,
      ...overrides,
    };
  };
  const newProduct = async (image?: PreparedImage) => {
    const created = await createProduct(test.db, admin, { raw: productForm(), image });
    expect(created).toMatchObject({ ok: true });
    return (created as { id: number }).id;
  };

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email));
    admin = { id: row!.id, email: DEMO_ADMIN.email, role: "admin", clientAddress: "203.0.113.9" };
  });
  afterAll(async () => {
    await test.close();
  });

  const freshDataFolder = async () => {
    if (data) await rm(data, { recursive: true, force: true });
    data = await mkdtemp(path.join(tmpdir(), "media-sweep-"));
    uploads = path.join(data, "uploads");
  };

  describe("refused and failed uploads", () => {
    beforeAll(freshDataFolder);

    it("writes no file for a product the form refuses, nor for a picture a full gallery refuses", async () => {
      const taken = productForm();
      expect(await createProduct(test.db, admin, { raw: taken })).toMatchObject({ ok: true });
      const refused = await upload();
      expect(await createProduct(test.db, admin, { raw: { ...productForm(), slug: taken.slug }, image: refused })).toMatchObject({
        ok: false,
        reason: "invalid",
      });
      expect(await createProduct(test.db, admin, { raw: productForm({ priceCents: "caro" }), image: refused })).toMatchObject({ ok: false });
      expect(await onDisk()).toEqual([]);

      const productId = await newProduct(await upload());
      for (let count = 1; count < MAX_PRODUCT_IMAGES; count += 1) await addProductImage(test.db, admin, productId, { image: await upload(), alt: "" });
      const full = await onDisk();
      expect(full).toHaveLength(2 * MAX_PRODUCT_IMAGES);
      const ninth = await upload();
      expect(await addProductImage(test.db, admin, productId, { image: ninth, alt: "" })).toMatchObject({ ok: false, reason: "invalid" });
      expect(await addProductImage(test.db, admin, productId, { image: ninth, alt: "x".repeat(201) })).toMatchObject({ ok: false, reason: "invalid" });
      expect(await addProductImage(test.db, admin, 2_000_000, { image: ninth, alt: "" })).toEqual({ ok: false, reason: "not_found" });
      expect(await onDisk()).toEqual(full);
    });

    it("writes no logo for an organisation the form refuses, and writes it when the save goes through", async () => {
      const [organization] = await test.db.select().from(organizations).limit(1);
      const logo = await upload();
      const form = { title: organization!.title, description: organization!.description, image: "", active: true };
      expect(await updateOrganization(test.db, admin, organization!.id, { ...form, title: "" }, logo)).toMatchObject({ ok: false, reason: "invalid" });
      for (const name of filesOf(logo)) expect(await onDisk()).not.toContain(name);

      expect(await updateOrganization(test.db, admin, organization!.id, form, logo)).toEqual({ ok: true, id: organization!.id });
      expect(await onDisk()).toEqual(expect.arrayContaining(filesOf(logo)));
      const [saved] = await test.db.select({ image: organizations.image }).from(organizations).where(eq(organizations.id, organization!.id));
      expect(saved!.image).toBe(logo.largePath);
    });

    it("removes the files again when the transaction fails at its commit, after they were written", async () => {
      // A check PostgreSQL runs only at COMMIT, i.e. after the save wrote its files.
      await test.db.execute(
        sql.raw(`create function refuse_marked_picture() returns trigger language plpgsql as $$
          begin if new.alt = 'rechazar al confirmar' then raise exception 'picture refused at commit'; end if; return new; end $$`),
      );
      await test.db.execute(
        sql.raw(`create constraint trigger refuse_marked_picture after insert on product_images
          deferrable initially deferred for each row execute function refuse_marked_picture()`),
      );
      try {
        const productId = await newProduct();
        const before = await onDisk();
        const picture = await upload();
        await expect(addProductImage(test.db, admin, productId, { image: picture, alt: "rechazar al confirmar" })).rejects.toThrow();
        expect(await onDisk()).toEqual(before);
        expect(await test.db.select().from(productImages).where(eq(productImages.productId, productId))).toEqual([]);

        // The same picture already named by another product stays: the failed save removes only unnamed files.
        const shared = await upload();
        await newProduct(shared);
        await expect(addProductImage(test.db, admin, productId, { image: shared, alt: "rechazar al confirmar" })).rejects.toThrow();
        expect(await onDisk()).toEqual(expect.arrayContaining(filesOf(shared)));
      } finally {
        await test.db.execute(sql.raw("drop trigger refuse_marked_picture on product_images"));
        await test.db.execute(sql.raw("drop function refuse_marked_picture()"));
      }
    });

    it("keeps one picture and its files when the same upload is posted twice at once", async () => {
      const productId = await newProduct();
      const picture = await upload();
      const answers = await Promise.all([
        addProductImage(test.db, admin, productId, { image: picture, alt: "" }),
        addProductImage(test.db, admin, productId, { image: picture, alt: "" }),
      ]);
      expect(answers).toEqual([
        { ok: true, id: productId },
        { ok: true, id: productId },
      ]);
      expect(await test.db.select({ image: productImages.image }).from(productImages).where(eq(productImages.productId, productId))).toEqual([
        { image: picture.path },
      ]);
      expect(await onDisk()).toEqual(expect.arrayContaining(filesOf(picture)));
      expect((await onDisk()).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    });
  });

  describe("the sweep", () => {
    beforeAll(freshDataFolder);

    it("deletes a removed gallery picture's files after the grace period, not before, and keeps what rows name", async () => {
      const kept = await upload();
      const removed = await upload();
      const productId = await newProduct(kept);
      await addProductImage(test.db, admin, productId, { image: removed, alt: "" });
      const [row] = await test.db.select({ id: productImages.id }).from(productImages).where(eq(productImages.image, removed.path));
      expect(await removeProductImage(test.db, admin, productId, row!.id)).toEqual({ ok: true, id: productId });
      expect(await onDisk()).toEqual([...filesOf(kept), ...filesOf(removed)].sort());

      // The sweep's clock is the files' own (the file system's clock, which faketime does not move).
      const writtenAt = (await lstat(path.join(uploads, removed.files[0]!.name))).mtimeMs;
      expect(await sweepUnusedMedia(test.db, { dir: uploads, now: new Date(writtenAt + HOUR) })).toEqual({
        scanned: 4,
        kept: 2,
        young: 2,
        deleted: 0,
        failed: 0,
      });
      expect(await onDisk()).toEqual([...filesOf(kept), ...filesOf(removed)].sort());

      expect(await sweepUnusedMedia(test.db, { dir: uploads, now: new Date(writtenAt + 25 * HOUR) })).toEqual({
        scanned: 4,
        kept: 2,
        young: 0,
        deleted: 2,
        failed: 0,
      });
      expect(await onDisk()).toEqual(filesOf(kept));
    });

    it("keeps a file any table names: an organisation's logo, a history entry's picture, another product's gallery", async () => {
      const logo = await upload();
      const history = await upload();
      const replaced = await upload();
      const [organization] = await test.db.select().from(organizations).limit(1);
      const form = { title: organization!.title, description: organization!.description, image: "", active: true };
      await updateOrganization(test.db, admin, organization!.id, form, replaced);
      await updateOrganization(test.db, admin, organization!.id, form, logo);
      // Staff may type an uploaded picture's path into a history entry.
      const historyProduct = await newProduct(history);
      await test.db.execute(sql`insert into history_entries (title, description, image) values ('Marzo 2026', 'Nueva planta', ${history.path})`);
      await test.db.delete(productImages).where(eq(productImages.productId, historyProduct));
      await test.db.execute(sql`update products set image = null where id = ${historyProduct}`);

      const report = await sweepUnusedMedia(test.db, { dir: uploads, now: dayLater() });
      expect(report).toMatchObject({ deleted: 2, failed: 0 });
      const files = await onDisk();
      expect(files).toEqual(expect.arrayContaining([...filesOf(logo), ...filesOf(history)]));
      for (const name of filesOf(replaced)) expect(files).not.toContain(name);
    });

    it("touches nothing but its own file names directly in the media folder", async () => {
      const twoDaysAgo = new Date(Date.now() - 48 * HOUR);
      const stray = "0123456789abcdef01234567-400.webp";
      const others = {
        complaint: path.join(data, "reclamos", "000000001-2026.pdf"),
        invoice: path.join(data, "comprobantes", "B001-00000001.pdf"),
        sameNameOutside: path.join(data, "otros", stray),
        note: path.join(uploads, "LEEME.txt"),
        subfolder: path.join(uploads, "respaldo", stray),
        lookalike: path.join(uploads, "0123456789abcdef01234567-400.webp.bak"),
      };
      for (const file of Object.values(others)) {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, "guardado por ley");
        await utimes(file, twoDaysAgo, twoDaysAgo);
      }
      // A link with a media name pointing at a complaint sheet: neither the link nor the sheet is the sweep's.
      const link = path.join(uploads, "fedcba9876543210fedcba98-800.webp");
      await symlink(others.complaint, link);
      // What a crashed upload leaves, and an unnamed file of our own, both old.
      const leftover = path.join(uploads, `${stray}.3b1f2c4d-0000-4000-8000-000000000000.tmp`);
      await writeFile(leftover, "a medias");
      await writeFile(path.join(uploads, stray), "sin fila");
      for (const file of [leftover, path.join(uploads, stray)]) await utimes(file, twoDaysAgo, twoDaysAgo);

      const report = await sweepUnusedMedia(test.db, { dir: uploads });
      expect(report).toMatchObject({ deleted: 2, failed: 0 });
      for (const file of Object.values(others)) expect(await readFile(file, "utf8")).toBe("guardado por ley");
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      await expect(lstat(leftover)).rejects.toThrow();
      await expect(lstat(path.join(uploads, stray))).rejects.toThrow();
    });

    it("runs safely twice at once (two processes): each unused file is deleted once, nothing named goes", async () => {
      const named = await upload();
      await newProduct(named);
      const unused: PreparedImage[] = [];
      const productId = await newProduct();
      for (let count = 0; count < 3; count += 1) {
        const picture = await upload();
        unused.push(picture);
        await addProductImage(test.db, admin, productId, { image: picture, alt: "" });
      }
      for (const row of await test.db.select({ id: productImages.id }).from(productImages).where(eq(productImages.productId, productId)))
        await removeProductImage(test.db, admin, productId, row.id);
      const now = dayLater();
      const [first, second] = await Promise.all([sweepUnusedMedia(test.db, { dir: uploads, now }), sweepUnusedMedia(test.db, { dir: uploads, now })]);
      expect(first.failed + second.failed).toBe(0);
      expect(first.deleted + second.deleted).toBe(2 * unused.length);
      const files = await onDisk();
      expect(files).toEqual(expect.arrayContaining(filesOf(named)));
      for (const picture of unused) for (const name of filesOf(picture)) expect(files).not.toContain(name);
    });
    it("never deletes a file whose naming row is about to commit (the upload holds the media lock)", async () => {
      const productId = await newProduct();
      const picture = await upload();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      // A save caught between writing its files and committing its row, as addProductImage does it.
      const saving = inTransaction(test.db, async (tx) => {
        await tx.insert(productImages).values({ productId, image: picture.path, position: 1 });
        await writeUploadedImage(tx, picture);
        written();
        await gate;
      });
      await wrote;
      const sweeping = sweepUnusedMedia(test.db, { dir: uploads, now: dayLater() });
      let swept = false;
      void sweeping.finally(() => (swept = true));
      if (test.handle.kind === "postgres") {
        // The sweep saw the files unnamed and old: it must wait for the upload's lock before deleting
        // (a sweep without the lock would finish here, having deleted them).
        const waiting = async () => rowsOf(await test.db.execute(sql`select 1 from pg_locks where locktype = 'advisory' and not granted`)).length > 0;
        while (!swept && !(await waiting())) await new Promise((resolve) => setImmediate(resolve));
      }
      release();
      await saving;
      expect(await sweeping).toMatchObject({ failed: 0 });
      expect(await onDisk()).toEqual(expect.arrayContaining(filesOf(picture)));
    });
  });

  it("knows every column that may hold an uploaded picture's path", async () => {
    const imageLike = rowsOf<{ table_name: string; column_name: string }>(
      await test.db.execute(sql`select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type = 'text' and column_name ~ '(image|logo|picture|photo|foto|imagen|media)'`),
    )
      .map((row) => `${row.table_name}.${row.column_name}`)
      .sort();
    const swept = MEDIA_PATH_COLUMNS.map(({ table, column }) => `${getTableName(table)}.${column.name}`).sort();
    expect(imageLike).toEqual(swept);
  });

  it("is a job of the pass, swept at most once an hour by a process", async () => {
    const first = await runDueJobs(test.db, { now: new Date(), only: ["mediaSweep"] });
    expect(first).toEqual({ results: { mediaSweep: { scanned: 0, kept: 0, young: 0, deleted: 0, failed: 0 } }, failures: [] });
    const again = await runDueJobs(test.db, { now: new Date(), only: ["mediaSweep"] });
    expect(again.results.mediaSweep).toBeNull();
  });
});
