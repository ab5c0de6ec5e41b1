/**
 * Issue 24, defect 4 against the real server (decision 0073): an anonymous 8 MiB post to /contact,
 * with or without a Content-Length, is answered 413 with a Spanish page and its connection closed
 * (the rest is never read); an API route answers JSON; the server then answers as before. The
 * server's memory under that post is measured by bench/body-limit.mjs, not here.
 */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { BODY_TOO_LARGE } from "~/request-body.server";
import { MOBILE } from "../support/browser";
import { useBrowser } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";

const MiB = 1024 * 1024;

interface Answer {
  status: number;
  type: string;
  connection: string;
  body: string;
}

/** Posts `bytes` of form (or JSON), in 64 KiB pieces; the server may answer before all of it is sent. */
function post(baseURL: string, path: string, bytes: number, { chunked, json = false }: { chunked: boolean; json?: boolean }): Promise<Answer> {
  const url = new URL(path, baseURL);
  const head = json ? '{"email":"ana@prueba.pe","items":"' : "name=Ana&email=ana%40prueba.pe&subject=Hola&message=";
  const body = Buffer.concat([Buffer.from(head), Buffer.alloc(bytes - head.length, "a")]);
  const headers: Record<string, string> = { "Content-Type": json ? "application/json" : "application/x-www-form-urlencoded", Origin: baseURL };
  if (!chunked) headers["Content-Length"] = String(body.length);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"] ?? "", connection: response.headers.connection ?? "", body: text }),
      );
    });
    // Writing into a socket the server has closed after answering is expected; the answer decides.
    request.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
    let offset = 0;
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

  it("answers an anonymous 8 MiB post to /contact, chunked or not, with a Spanish 413 and closes its connection", { timeout: 60_000 }, async () => {
    for (const chunked of [true, false]) {
      const answer = await post(shop.baseURL(), "/contact", 8 * MiB, { chunked });
      expect(answer.status, `chunked: ${chunked}`).toBe(413);
      expect(answer.type).toContain("text/html");
      expect(answer.body).toContain(BODY_TOO_LARGE.slice(0, 40));
      expect(answer.connection).toBe("close");
    }
    // A script's post (React Router's .data) is bounded the same way.
    expect((await post(shop.baseURL(), "/contact.data", 1 * MiB, { chunked: true })).status).toBe(413);
    // The server is fine afterwards.
    expect((await fetch(`${shop.baseURL()}/contact`)).status).toBe(200);
  });

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
      await page.getByRole("button", { name: "Enviar mensaje" }).click();
      await page.getByText(BODY_TOO_LARGE).waitFor();
      // The layout audit runs page script (a TreeWalker's filter), which a page without JavaScript cannot.
      if (javaScriptEnabled) {
        expect(await auditLayout(page)).toEqual([]);
        // The browser logs the refused request's status; nothing else may go wrong.
        expect(errors.filter((error) => !error.includes("413"))).toEqual([]);
      }
      await close();
    }
  });
});
