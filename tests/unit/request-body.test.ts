/**
 * Issue 24, defect 4 (decision 0073): every body is bounded before it is read. A declared length
 * over the route's limit is refused without reading a byte; a chunked body (no length) is counted
 * as it arrives and the read stops at the limit, however much more the client would send.
 */
import { describe, expect, it } from "vitest";
import { BODY_LIMITS, BODY_TOO_LARGE, readFormData, readJson, readText } from "~/server/request-body.server";

const KiB = 1024;

/** A body that would go on for `total` bytes, streamed 16 KiB at a time, counting what was pulled from it. */
function endlessBody(total: number) {
  const pulled = { bytes: 0 };
  const chunk = new TextEncoder().encode("a".repeat(16 * KiB));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close();
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled };
}

function post(path: string, body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return new Request(`http://shop.test${path}`, { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** What a reader threw: React Router's data() (pages) or a Response (API routes). */
async function thrown(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return { status: error.status, body: await error.json() };
    const refusal = error as { init?: { status?: number }; data?: unknown };
    return { status: refusal.init?.status ?? 0, body: refusal.data };
  }
  throw new Error("the reader accepted the body");
}

describe("bounded request bodies", () => {
  it("refuses an 8 MiB chunked form after reading no more than the small-form limit", async () => {
    const { stream, pulled } = endlessBody(8 * 1024 * KiB);
    const request = post("/contact", stream, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(await thrown(readFormData(request))).toEqual({ status: 413, body: BODY_TOO_LARGE });
    // The stream's own read-ahead may hold a chunk or two more; never the 8 MiB.
    expect(pulled.bytes).toBeLessThanOrEqual(BODY_LIMITS.form + 64 * KiB);
  });

  it("refuses a declared length over the limit before reading a byte", async () => {
    const { stream, pulled } = endlessBody(1024 * KiB);
    const request = post("/contact", stream, { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(1024 * KiB) });
    expect(await thrown(readFormData(request))).toEqual({ status: 413, body: BODY_TOO_LARGE });
    expect(pulled.bytes).toBeLessThanOrEqual(16 * KiB);
  });

  it("answers JSON on the API routes, and lets a JSON body under the limit through", async () => {
    const { stream } = endlessBody(1024 * KiB);
    expect(await thrown(readJson(post("/api/carrito/abandonado", stream, { "Content-Type": "application/json" })))).toEqual({
      status: 413,
      body: { error: BODY_TOO_LARGE },
    });
    expect(await readJson(post("/api/carrito/abandonado", JSON.stringify({ email: "ana@prueba.pe" }), { "Content-Type": "application/json" }))).toEqual({
      email: "ana@prueba.pe",
    });
    expect(await readJson(post("/api/carrito/abandonado", "{roto", { "Content-Type": "application/json" }))).toBeNull();
  });

  it("reads a form at the limit of its kind: a long legal text and a picture are not small forms", async () => {
    const long = `title=T%C3%A9rminos&html=${"%C3%A1".repeat(100_000)}`;
    expect(long.length).toBeGreaterThan(BODY_LIMITS.form);
    const request = () => post("/admin/contenido/textos/terminos", long, { "Content-Type": "application/x-www-form-urlencoded" });
    expect((await readFormData(request(), "longText")).get("html")).toBe("á".repeat(100_000));
    expect((await thrown(readFormData(request()))).status).toBe(413);

    const picture = new FormData();
    picture.set("imageFile", new File([new Uint8Array(4 * 1024 * KiB)], "foto.png", { type: "image/png" }));
    const upload = new Request("http://shop.test/admin/productos/1", { method: "POST", body: picture });
    expect(((await readFormData(upload, "upload")).get("imageFile") as File).size).toBe(4 * 1024 * KiB);
  });

  it("bounds a webhook's raw body", async () => {
    const { stream } = endlessBody(1024 * KiB);
    expect((await thrown(readText(post("/api/pagos/culqi/webhook", stream, { "Content-Type": "application/json" }), "webhook"))).status).toBe(413);
    expect(await readText(post("/api/pagos/culqi/webhook", '{"type":"charge.creation.succeeded"}', {}), "webhook")).toBe(
      '{"type":"charge.creation.succeeded"}',
    );
  });

  it("recognises the server's own cut-off (scripts/serve.mjs) as a 413", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(Object.assign(new Error("too large"), { name: "RequestBodyTooLargeError" }));
      },
    });
    expect((await thrown(readFormData(post("/contact", stream, { "Content-Type": "application/x-www-form-urlencoded" })))).status).toBe(413);
  });
});
