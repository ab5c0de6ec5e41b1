/**
 * Issue 24, defect 4 against the real server (decision 0073): an anonymous 8 MiB post to /contact,
 * with or without a Content-Length, is answered 413 with a Spanish page at once, and the rest is
 * thrown away (never kept) so the client reads its answer instead of a reset connection; past
 * 16 MiB the connection is cut. An API route answers JSON; the server then answers as before. The
 * server's memory under that post is measured by bench/body-limit.mjs, not here.
 */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { BODY_TOO_LARGE } from "~/server/request-body.server";
import { expectPageError, MOBILE } from "../support/browser";
import { useBrowser } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";

const MiB = 1024 * 1024;

interface Answer {
  status: number;
  type: string;
  body: string;
  /** The connection was cut before an answer was read (status 0 then). */
  cut: boolean;
  /** How much of the body was handed to the socket before the request ended. */
  sent: number;
}

/**
 * Posts `bytes` of form (or JSON), in 64 KiB pieces; the server may answer before
 * all of it is sent. A connection cut before an answer resolves as `cut`, never hangs.
 */
function post(baseURL: string, path: string, bytes: number, { chunked, json = false }: { chunked: boolean; json?: boolean }): Promise<Answer> {
  const url = new URL(path, baseURL);
  const head = json ? '{"email":"ana@prueba.pe","items":"' : "name=Ana&email=ana%40prueba.pe&subject=Hola&message=";
  const body = Buffer.concat([Buffer.from(head), Buffer.alloc(bytes - head.length, "a")]);
  const headers: Record<string, string> = { "Content-Type": json ? "application/json" : "application/x-www-form-urlencoded", Origin: baseURL };
  if (!chunked) headers["Content-Length"] = String(body.length);
  let offset = 0;
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(url, { method: "POST", headers }, (response) => {
      answered = true;
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"] ?? "", body: text, cut: false, sent: offset }),
      );
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") return reject(error);
      // Writing into a socket the server cut is expected past the limit; an answer already read decides.
      if (!answered) resolve({ status: 0, type: "", body: "", cut: true, sent: offset });
    });
    const pump = () => {
      while (offset < body.length && !request.destroyed) {
        const piece = body.subarray(offset, offset + 64 * 1024);
        offset += piece.length;
        if (!request.write(piece)) return void request.once("drain", pump);
      }
      request.end();
    };
    pump();
  });
}

describe("request bodies are bounded", () => {
  const shop = useBrowser();

  it(
    "answers an anonymous 8 MiB post to /contact, chunked or not, with a Spanish 413 the client reads, and cuts one past 16 MiB",
    { timeout: 60_000 },
    async () => {
      for (const chunked of [true, false]) {
        const answer = await post(shop.baseURL(), "/contact", 8 * MiB, { chunked });
        expect(answer.status, `chunked: ${chunked}`).toBe(413);
        expect(answer.type).toContain("text/html");
        expect(answer.body).toContain(BODY_TOO_LARGE.slice(0, 40));
        // Read whole, not lost to a reset: the rest of the body was taken off the wire after the answer.
        expect(answer.cut).toBe(false);
      }
      // A script's post (React Router's .data) is bounded the same way.
      expect((await post(shop.baseURL(), "/contact.data", 1 * MiB, { chunked: true })).status).toBe(413);
      // Past 16 MiB thrown away the server stops reading: the post ends long before all of it is sent.
      const flood = await post(shop.baseURL(), "/contact", 64 * MiB, { chunked: true });
      expect(flood.sent).toBeLessThan(48 * MiB);
      // The server is fine afterwards.
      expect((await fetch(`${shop.baseURL()}/contact`)).status).toBe(200);
    },
  );

  it("answers JSON on an API route", async () => {
    const answer = await post(shop.baseURL(), "/api/carrito/abandonado", 200 * 1024, { chunked: true, json: true });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: BODY_TOO_LARGE });
  });

  it("shows the refusal as a page that fits a phone when a browser posts too much, with and without JavaScript", { timeout: 90_000 }, async () => {
    for (const javaScriptEnabled of [false, true]) {
      const { page, errors, close } = await shop.open({ ...MOBILE, javaScriptEnabled });
      await page.goto(`${shop.baseURL()}/contact`);
      if (javaScriptEnabled) await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
      await page.getByLabel("Nombre", { exact: true }).fill("Ana Torres");
      await page.getByLabel("Correo electrónico", { exact: true }).fill("ana@prueba.pe");
      await page.getByLabel("Asunto", { exact: true }).fill("Consulta");
      // A hand-edited form: the message field's own limit taken off, 100 000 characters typed.
      await page.getByLabel("Mensaje", { exact: true }).evaluate((field: HTMLTextAreaElement, text) => {
        field.removeAttribute("maxlength");
        field.value = text;
      }, "¿".repeat(100_000));
      // The browser logs the refused request's status.
      expectPageError(/^console: Failed to load resource: the server responded with a status of 413 \(Payload Too Large\) </);
      await page.getByRole("button", { name: "Enviar mensaje" }).click();
      await page.getByText(BODY_TOO_LARGE).waitFor();
      // The layout audit runs page script (a TreeWalker's filter), which a page without JavaScript cannot.
      if (javaScriptEnabled) {
        expect(await auditLayout(page)).toEqual([]);
        // Nothing else may go wrong.
        expect(errors.filter((error) => !error.includes("413"))).toEqual([]);
      }
      await close();
    }
  });
});
