import { createHmac } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "@server/config/env";
import { cloudApiPayload, checkWebhookSignature, fillTemplate, WHATSAPP_TEMPLATES, type WhatsappTemplate } from "@server/whatsapp/index.server";
import { firstNameParameter } from "@server/whatsapp/templates";
import { readInbound, readStatus } from "@server/whatsapp/webhook-items";
import { isWhatsappOptInAnswer, isWhatsappOptOut, whatsappFailureReason, whatsappNumber } from "@core/whatsapp";

describe("WhatsApp numbers (issue 25)", () => {
  it("normalises a Peruvian mobile however it is typed to E.164 without the plus", () => {
    for (const typed of ["987654321", "987 654 321", "+51 987 654 321", "51987654321", "+51-987-654-321", "(51) 987654321", "0051 987654321"])
      expect(whatsappNumber(typed), typed).toBe("51987654321");
  });

  it("refuses landlines, foreign, short and long numbers", () => {
    for (const typed of ["014567890", "+1 415 555 0100", "98765432", "9876543210", "887654321", "", null, "abc"])
      expect(whatsappNumber(typed), String(typed)).toBeNull();
  });

  it("recognises BAJA, STOP and NO in any case, with accents or punctuation, and nothing else", () => {
    for (const body of ["BAJA", "baja", " Baja. ", "STOP", "stop!", "No", "NO."]) expect(isWhatsappOptOut(body), body).toBe(true);
    for (const body of ["No tengo agua", "Baja el precio?", "Hola", "", null]) expect(isWhatsappOptOut(body), String(body)).toBe(false);
  });
});

describe("what a stranger typed, in a template (issue 39)", () => {
  it("keeps only a name's first word, in letters, 20 at most, and never a link or a sentence", () => {
    expect(firstNameParameter("Hola Visita http://evil.example/pago ahora")).toBe("Hola");
    expect(firstNameParameter("http://evil.example/pago")).toBe("httpevilexamplepago".slice(0, 20));
    expect(firstNameParameter("María José")).toBe("María");
    expect(firstNameParameter("O'Higgins")).toBe("O'Higgins");
    expect(firstNameParameter("  ")).toBe("cliente");
    expect(firstNameParameter("12345 www.x.pe")).toBe("cliente");
    expect(firstNameParameter("Ana-María")).toBe("Ana-María");
  });

  it("recognises the answer SÍ to the shop's question, typed or tapped, and nothing else", () => {
    for (const body of ["Sí", "si", "SI.", "Sí, quiero avisos", "alta", "Acepto"]) expect(isWhatsappOptInAnswer(body), body).toBe(true);
    for (const body of ["No", "Sí pero mañana", "sii", "", null]) expect(isWhatsappOptInAnswer(body), String(body)).toBe(false);
  });
});

describe("WhatsApp templates", () => {
  const docs = readFileSync("docs/whatsapp.md", "utf8");

  it("are listed in docs/whatsapp.md with their exact name, text, parameters and button, ready to submit", () => {
    for (const template of Object.values(WHATSAPP_TEMPLATES) as WhatsappTemplate[]) {
      expect(docs, template.name).toContain(`\`${template.name}\``);
      expect(docs, template.name).toContain(`\n${template.body}\n`);
      template.parameters.forEach((parameter, index) =>
        expect(docs, `${template.name} {{${index + 1}}}`).toContain(`| \`{{${index + 1}}}\` | ${parameter.meaning} | ${parameter.example} |`),
      );
      if (template.button) expect(docs, template.name).toContain(`text «${template.button.text}»`);
      for (const reply of template.quickReplies ?? []) expect(docs, template.name).toContain(`**Quick reply**, text «${reply}»`);
      // Every {{n}} of the body has its parameter, in order, and no other.
      const placeholders = [...template.body.matchAll(/\{\{(\d+)\}\}/g)].map((match) => Number(match[1]));
      expect(placeholders).toEqual(template.parameters.map((_, index) => index + 1));
      // Meta refuses a body that starts or ends with a parameter.
      expect(template.body.trim().startsWith("{{")).toBe(false);
      expect(/\{\{\d+\}\}[.!?]?$/.test(template.body.trim())).toBe(false);
      expect(template.name).toMatch(/^[a-z0-9_]+$/);
    }
  });

  it("turns a parameter into one line (Meta's 132018) and fills the text the customer reads", () => {
    const filled = fillTemplate("delivered", ["Rosa", "VA-000123", "Juan\n\tPérez     Díaz", "2", "1", "3"], {
      buttonUrlSuffix: "/repetir-pedido/abc?token=x",
      siteUrl: "https://vidaalcalina.pe",
    });
    expect(filled.parameters).toEqual({ body: ["Rosa", "VA-000123", "Juan Pérez Díaz", "2", "1", "3"], buttonUrlSuffix: "repetir-pedido/abc?token=x" });
    expect(filled.renderedText).toBe(
      "Hola Rosa, entregamos tu pedido VA-000123; lo recibió Juan Pérez Díaz. Bidones llenos dejados: 2. Vacíos recogidos: 1. Bidones nuestros en tu poder: 3. ¡Gracias por tu compra!\n\n[Repetir pedido] https://vidaalcalina.pe/repetir-pedido/abc?token=x",
    );
    expect(fillTemplate("delivered", ["Rosa", "VA-1", "   ", "0", "0", "0"], { buttonUrlSuffix: "orden/a", siteUrl: "https://x.pe" }).parameters.body[2]).toBe(
      "-",
    );
  });

  it("refuses a fill with the wrong number of parameters or a missing button suffix", () => {
    expect(() => fillTemplate("orderConfirmed", ["Rosa"], { buttonUrlSuffix: "orden/a", siteUrl: "https://x.pe" })).toThrow(/takes 4 parameters/);
    expect(() => fillTemplate("orderConfirmed", ["Rosa", "VA-1", "S/ 1.00", "hoy"], { siteUrl: "https://x.pe" })).toThrow(/button/);
  });

  it("sends a template as the Cloud API's JSON: body parameters and the URL button's suffix", () => {
    const filled = fillTemplate("onTheWay", ["Rosa", "VA-1", "Mañana (9am - 12pm)", "Eres la siguiente parada"], {
      buttonUrlSuffix: "orden/a?token=b",
      siteUrl: "https://x.pe",
    });
    const payload = cloudApiPayload({ id: "1", to: "51987654321", kind: "template", ...filled, createdAt: new Date() });
    expect(payload).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "51987654321",
      type: "template",
      template: {
        name: "pedido_en_camino",
        language: { code: "es" },
        components: [
          { type: "body", parameters: ["Rosa", "VA-1", "Mañana (9am - 12pm)", "Eres la siguiente parada"].map((text) => ({ type: "text", text })) },
          { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "orden/a?token=b" }] },
        ],
      },
    });
  });
});

describe("the webhook signature", () => {
  const secret = "0123456789abcdef0123456789abcdef";
  // Meta escapes non-ASCII: these are the bytes it signs.
  const raw = Buffer.from('{"text":{"body":"Ma\\u00f1ana, Jos\\u00e9"}}', "utf8");
  const sign = (bytes: Buffer | string) => `sha256=${createHmac("sha256", secret).update(bytes).digest("hex")}`;

  it("is the HMAC-SHA256 of the raw bytes, not of the JSON written again", () => {
    expect(checkWebhookSignature(raw, sign(raw), secret)).toBe("valid");
    expect(checkWebhookSignature(raw, sign(raw).toUpperCase().replace("SHA256=", "sha256="), secret)).toBe("valid");
    const reserialised = JSON.stringify(JSON.parse(raw.toString("utf8")));
    expect(reserialised).toContain("ñ");
    expect(checkWebhookSignature(raw, sign(reserialised), secret)).toBe("invalid");
  });

  it("refuses a missing, malformed or wrong signature", () => {
    expect(checkWebhookSignature(raw, null, secret)).toBe("missing");
    expect(checkWebhookSignature(raw, "sha1=abcdef", secret)).toBe("missing");
    expect(checkWebhookSignature(raw, `sha256=${"0".repeat(64)}`, secret)).toBe("invalid");
    expect(checkWebhookSignature(Buffer.concat([raw, Buffer.from(" ")]), sign(raw), secret)).toBe("invalid");
  });
});

describe("WhatsApp configuration", () => {
  const secrets = {
    WHATSAPP_TOKEN: "EAAG".padEnd(40, "x"),
    WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
    WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef",
    WHATSAPP_VERIFY_TOKEN: "verifica-123",
  };

  it("is off without secrets (e-mail only), with the Graph API v24.0 as the default base", () => {
    const config = parseEnv({});
    expect(config.WHATSAPP_TOKEN).toBeUndefined();
    expect(config.WHATSAPP_API_URL).toBe("https://graph.facebook.com/v24.0");
    expect(config.WHATSAPP_LOCAL_OUTBOX).toBe(true);
    expect(
      parseEnv({ NODE_ENV: "production", SITE_URL: "https://x.pe", SESSION_SECRET: "s".repeat(32), ALLOW_SANDBOX_PAYMENTS: "true" }).WHATSAPP_LOCAL_OUTBOX,
    ).toBe(false);
    expect(parseEnv({ ...secrets }).WHATSAPP_PHONE_NUMBER_ID).toBe("106540352242922");
  });

  it("refuses a partial set with a line naming what is missing", () => {
    const { WHATSAPP_APP_SECRET: _secret, WHATSAPP_VERIFY_TOKEN: _token, ...partial } = secrets;
    expect(() => parseEnv(partial)).toThrow(/WHATSAPP_APP_SECRET: WhatsApp needs all of .*missing: WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN/);
  });

  it("names a phone number given where its id belongs", () => {
    expect(() => parseEnv({ ...secrets, WHATSAPP_PHONE_NUMBER_ID: "+51 987 654 321" })).toThrow(/WHATSAPP_PHONE_NUMBER_ID: must be the phone number's id/);
  });
});

describe("failure reasons staff read", () => {
  it("says in Spanish what Meta's codes mean", () => {
    expect(whatsappFailureReason(131026, "Message undeliverable")).toBe("El número no está en WhatsApp o no puede recibir mensajes (131026)");
    expect(whatsappFailureReason(132099, "New template error")).toBe("Problema con la plantilla (132099): New template error");
    expect(whatsappFailureReason(null, "Network: fetch failed")).toBe("Network: fetch failed");
  });
});

describe("the WhatsApp channel", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  /** The whatsapp door with the environment read afresh. */
  async function doorWith(environment: Record<string, string>) {
    for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
    vi.resetModules();
    return import("@server/whatsapp/index.server");
  }

  it("is off without secrets (unless the local outbox is asked for): nothing is queued and no client exists", async () => {
    const door = await doorWith({
      NODE_ENV: "test",
      WHATSAPP_LOCAL_OUTBOX: "false",
      WHATSAPP_TOKEN: "",
      WHATSAPP_PHONE_NUMBER_ID: "",
      WHATSAPP_APP_SECRET: "",
      WHATSAPP_VERIFY_TOKEN: "",
    });
    expect(door.whatsappChannel()).toBeNull();
    expect(door.configuredWhatsappClient()).toBeNull();
    const message = {
      dedupeKey: "x",
      phone: "987654321",
      template: fillTemplate("orderConfirmed", ["Rosa", "VA-1", "S/ 1.00", "hoy"], { buttonUrlSuffix: "orden/a", siteUrl: "https://x.pe" }),
    };
    // The database is never touched: a stand-in that throws on any use proves it.
    const untouchable = new Proxy(
      {},
      {
        get: () => {
          throw new Error("the database was used");
        },
      },
    );
    expect(await door.enqueueWhatsappTemplates(untouchable as never, [message], new Date())).toBe(0);
  });

  it("writes the local demo's messages beside the e-mails: what the customer reads and the request Meta would get", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "wa-outbox-"));
    const door = await doorWith({ WHATSAPP_LOCAL_OUTBOX: "true", OUTBOX_DIR: dir, WHATSAPP_TOKEN: "" });
    expect(door.whatsappChannel()).toEqual({ kind: "local", dir });
    const filled = fillTemplate("onTheWay", ["Rosa", "VA-1", "Mañana (9am - 12pm)", "Eres la siguiente parada"], {
      buttonUrlSuffix: "orden/a?token=b",
      siteUrl: "http://localhost:3000",
    });
    const outcome = await door
      .configuredWhatsappClient()!
      .send({ id: "0b7e2c1a-0000-4000-8000-000000000000", to: "51987654321", kind: "template", ...filled, createdAt: new Date("2026-11-25T15:00:00Z") });
    expect(outcome).toEqual({ ok: true, wamid: "wamid.local.0b7e2c1a-0000-4000-8000-000000000000" });
    const files = readdirSync(dir).sort();
    expect(files).toEqual([
      "2026-11-25T15-00-00-000Z-whatsapp-pedido_en_camino-0b7e2c1a.json",
      "2026-11-25T15-00-00-000Z-whatsapp-pedido_en_camino-0b7e2c1a.txt",
    ]);
    const text = readFileSync(path.join(dir, files[1]!), "utf8");
    expect(text).toContain("Para: +51987654321");
    expect(text).toContain("Hola Rosa, tu pedido VA-1 salió a reparto y llega hoy en el horario Mañana (9am - 12pm). Eres la siguiente parada.");
    expect(text).toContain("[Ver mi pedido] http://localhost:3000/orden/a?token=b");
    expect(JSON.parse(readFileSync(path.join(dir, files[0]!), "utf8"))).toMatchObject({ type: "template", template: { name: "pedido_en_camino" } });
    rmSync(dir, { recursive: true, force: true });
  });

  it("prefers the Cloud API when its secrets are set", async () => {
    const door = await doorWith({
      WHATSAPP_LOCAL_OUTBOX: "true",
      WHATSAPP_TOKEN: "EAAG".padEnd(40, "x"),
      WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
      WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef",
      WHATSAPP_VERIFY_TOKEN: "verifica-123",
    });
    expect(door.whatsappChannel()).toMatchObject({ kind: "cloud", apiUrl: "https://graph.facebook.com/v24.0", phoneNumberId: "106540352242922" });
  });
});

describe("webhook items, each read on its own (issue 39)", () => {
  const seconds = (iso: string) => Date.parse(iso) / 1000;
  const status = (extra: Record<string, unknown>) =>
    readStatus({ id: "wamid.HBgL1", status: "failed", timestamp: String(seconds("2030-05-01T00:00:00Z")), ...extra });
  const message = (extra: Record<string, unknown>) =>
    readInbound(
      { id: "wamid.IN1", from: "51987654321", timestamp: String(seconds("2030-05-01T00:00:00Z")), type: "text", text: { body: "Hola" }, ...extra },
      new Map(),
    );

  it("reads timestamps from the year 2000 up to, not including, 2100", () => {
    expect(message({ timestamp: String(seconds("2000-01-01T00:00:00Z")) }).kind).toBe("message");
    expect(message({ timestamp: seconds("2099-12-31T23:59:59Z") }).kind).toBe("message");
    for (const timestamp of [String(seconds("2100-01-01T00:00:00Z")), String(seconds("1999-12-31T23:59:59Z")), "1e16", 1e300, "", "mañana", -1])
      expect(message({ timestamp }).kind, String(timestamp)).toBe("unreadable");
  });

  it("reads error codes that fit PostgreSQL's integer, and no larger", () => {
    expect(status({ errors: [{ code: 2_147_483_647 }] })).toMatchObject({ kind: "report", report: { errorCode: 2_147_483_647 } });
    for (const code of [2_147_483_648, 2 ** 40, 1.5]) expect(status({ errors: [{ code }] }).kind, String(code)).toBe("unreadable");
  });

  it("takes a wa_id or a business-scoped user id as the sender, once cleaned, and nothing else", () => {
    for (const from of ["51987654321", "519876\u000054321", "PE.1502576394655843", "US.ENT.11815799212886844830"])
      expect(message({ from }).kind, from).toBe("message");
    for (const from of ["12345", "1".repeat(21), "+51987654321", "hola", "", 51987654321]) expect(message({ from }).kind, String(from)).toBe("unreadable");
  });

  it("keeps the id of an unreadable message only when it is one", () => {
    expect(message({ timestamp: "1e16", id: "wamid.IN2" })).toMatchObject({ kind: "unreadable", wamid: "wamid.IN2", body: "[Mensaje ilegible] Hola" });
    for (const id of ["wamid.\u0000", "wamid. espacio", "", "x".repeat(201), 7])
      expect(message({ timestamp: "1e16", id }), String(id)).toMatchObject({ wamid: null });
  });
});
