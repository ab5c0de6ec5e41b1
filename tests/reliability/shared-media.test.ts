import { readdir } from "node:fs/promises";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@server/db/client";
import { productImages, products } from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { cookieHeader, signInCookies } from "../support/accounts";
import { startS3StandIn, type S3StandIn } from "../support/s3-stand-in";
import { createShopDatabase, startShopProcess, type ShopDatabase, type ShopProcess } from "../support/shop-process";

/**
 * Issue 27 (PostgreSQL only: two processes on one database): two machines, each with its own
 * local folder, one bucket. A picture staff upload through one process is served by the other.
 */
describe("two processes with different local folders and one bucket", () => {
  let database: ShopDatabase;
  let handle: DatabaseHandle;
  let bucket: S3StandIn;
  let processes: ShopProcess[] = [];

  beforeAll(async () => {
    database = await createShopDatabase();
    handle = await database.open();
    bucket = await startS3StandIn();
    // Each process gets a folder of its own (startShopProcess gives each its own UPLOADS_DIR).
    processes = await Promise.all([startShopProcess({ database, env: bucket.env }), startShopProcess({ database, env: bucket.env })]);
  });
  afterAll(async () => {
    await Promise.all(processes.map((process) => process.kill()));
    await handle?.close();
    await bucket?.close();
    await database?.drop();
  });

  it("serves on one process the picture uploaded through the other", async () => {
    const [uploader, reader] = processes as [ShopProcess, ShopProcess];
    const [product] = await handle.db.select({ id: products.id }).from(products).orderBy(products.id).limit(1);
    const cookies = await signInCookies(uploader.baseURL, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const picture = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#0ea5e9" } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.set("intent", "image-add");
    form.set("alt", "Botella en la mesa");
    form.set("imageFile", new Blob([new Uint8Array(picture)], { type: "image/jpeg" }), "botella.jpg");
    const saved = await fetch(`${uploader.baseURL}/admin/productos/${product!.id}`, {
      method: "POST",
      headers: { Cookie: cookieHeader(cookies), Origin: uploader.baseURL },
      body: form,
      redirect: "manual",
    });
    expect([saved.status, saved.headers.get("location")]).toEqual([302, `/admin/productos/${product!.id}?guardado=1`]);

    const [image] = await handle.db
      .select({ image: productImages.image })
      .from(productImages)
      .where(eq(productImages.productId, product!.id))
      .orderBy(desc(productImages.createdAt))
      .limit(1);
    expect(image!.image).toMatch(/^\/media\//);
    const served = await fetch(`${reader.baseURL}${image!.image}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^image\//);
    expect(served.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);

    // Neither process kept the picture on its own disk: the bucket is where it lives.
    for (const process of processes) {
      const uploads = path.join(path.dirname(process.outboxDir), "uploads");
      expect(await readdir(uploads).catch(() => [])).toEqual([]);
    }
  });
});
