#!/usr/bin/env node
// `npm run whatsapp:say -- "lo de siempre"`: a customer writes to the local demo shop's WhatsApp
// (issue 38, docs/whatsapp.md "The local demo"). Posts what Meta's webhook would — a text, or with
// `--boton Confirmar` a tap on the reply button of the latest summary the shop wrote to the number
// in the local outbox — to http://localhost:$PORT/webhooks/whatsapp, signed with the machine's
// local key (HMAC of "whatsapp-local-webhook" with SESSION_SECRET or .data/app-secret, as the
// server computes it: server/whatsapp/channel.ts). The shop's answer lands in .data/outbox.
//
//   npm run whatsapp:say -- "lo de siempre"             as the demo customer, cliente@demo.pe
//   npm run whatsapp:say -- --boton Confirmar           taps «Confirmar» on her latest summary
//   npm run whatsapp:say -- --de 51999888777 "Hola"     from another number (nobody's: directions)
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEMO_CUSTOMER_NUMBER = "51987654321";

function parseArguments(argv) {
  const options = { from: DEMO_CUSTOMER_NUMBER, name: "María Fernández", button: null, words: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === "--de") options.from = argv[++index] ?? "";
    else if (argument === "--nombre") options.name = argv[++index] ?? "";
    else if (argument === "--boton") options.button = argv[++index] ?? "";
    else options.words.push(argument);
  }
  return options;
}

function appSecret() {
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  const file = path.join(root, ".data/app-secret");
  if (!existsSync(file)) throw new Error("No .data/app-secret yet: start the shop once with `npm start` (or set SESSION_SECRET as the server has it).");
  return readFileSync(file, "utf8").trim();
}

/** The latest reply-buttons message the local outbox holds for the number (the shop's .json copies). */
function latestButtons(to) {
  const dir = path.resolve(root, process.env.OUTBOX_DIR || ".data/outbox");
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((name) => name.includes("whatsapp") && name.endsWith(".json"))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const file of files) {
    const payload = JSON.parse(readFileSync(file, "utf8"));
    if (payload.to === to && payload.type === "interactive") return payload.interactive.action.buttons.map((button) => button.reply);
  }
  return null;
}

/** JSON as Meta writes it: every non-ASCII character escaped. */
const metaJson = (value) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

const options = parseArguments(process.argv.slice(2));
if (!/^\d{6,20}$/.test(options.from)) {
  console.error("--de needs the number as WhatsApp gives it: 51 and the 9 digits, e.g. 51987654321");
  process.exit(1);
}
let message;
if (options.button) {
  const buttons = latestButtons(options.from);
  const button = buttons?.find((candidate) => candidate.title.toLowerCase() === options.button.toLowerCase());
  if (!button) {
    console.error(`No summary with a «${options.button}» button for ${options.from} in the local outbox: write "lo de siempre" first.`);
    process.exit(1);
  }
  message = { type: "interactive", interactive: { type: "button_reply", button_reply: button } };
} else {
  const text = options.words.join(" ").trim();
  if (!text) {
    console.error('What does the customer write? e.g. npm run whatsapp:say -- "lo de siempre"');
    process.exit(1);
  }
  message = { type: "text", text: { body: text } };
}
const body = metaJson({
  object: "whatsapp_business_account",
  entry: [
    {
      id: "local",
      changes: [
        {
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "local", phone_number_id: "local" },
            contacts: [{ profile: { name: options.name }, wa_id: options.from }],
            messages: [
              { from: options.from, id: `wamid.LOCAL${randomBytes(12).toString("hex")}`, timestamp: String(Math.floor(Date.now() / 1000)), ...message },
            ],
          },
        },
      ],
    },
  ],
});
const key = createHmac("sha256", appSecret()).update("whatsapp-local-webhook").digest("hex");
const url = `${process.env.SHOP_URL || `http://localhost:${process.env.PORT || "3000"}`}/webhooks/whatsapp`;
try {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": `sha256=${createHmac("sha256", key).update(body).digest("hex")}` },
    body,
  });
  if (!response.ok) {
    console.error(`${url} answered ${response.status}: ${await response.text()}`);
    process.exit(1);
  }
  console.log(`Sent as ${options.from}. The shop's answer is written to .data/outbox (…-whatsapp-texto-….txt) within seconds.`);
} catch (error) {
  console.error(`Could not reach ${url} (is the shop running? npm start): ${error.message}`);
  process.exit(1);
}
