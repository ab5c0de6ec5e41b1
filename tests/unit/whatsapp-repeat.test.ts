import { describe, expect, it } from "vitest";
import { cloudApiPayload } from "@server/whatsapp/index.server";
import { quoteMessage } from "@server/whatsapp-orders/texts";
import { isRepeatChangeWord, isRepeatConfirmWord, isRepeatRequest, readRepeatButtonId, repeatButtonId, REPEAT_QUICK_REPLY } from "@core/whatsapp-repeat";

describe("«lo de siempre» in a customer's words (issue 38)", () => {
  it("recognises a wish to repeat the last order, whatever the case, accents, punctuation, greeting or courtesy", () => {
    for (const body of [
      "lo de siempre",
      "Lo de siempre",
      "LO DE SIEMPRE!!",
      "lo dé siempre.",
      "Hola, lo de siempre",
      "hola! lo de siempre por favor",
      "Buenos días, quiero lo de siempre, gracias",
      "buenas tardes: quiero mi pedido",
      "Quiero mi pedido",
      "REPETIR",
      "repetir pedido",
      "¿Repetir mi pedido?",
      REPEAT_QUICK_REPLY,
      "  el de siempre  ",
    ])
      expect(isRepeatRequest(body), body).toBe(true);
  });

  it("recognises nothing else, not even a sentence that contains the words", () => {
    for (const body of [
      "No quiero lo de siempre",
      "lo de siempre no, esta vez otra cosa",
      "Hola",
      "¿A qué hora llega lo de siempre?",
      "repetir no",
      "quiero",
      "",
      null,
      undefined,
    ])
      expect(isRepeatRequest(body), String(body)).toBe(false);
  });

  it("recognises «sí» and «confirmo» as a confirmation and «cambiar» as a change, only on their own", () => {
    for (const body of ["sí", "Si", "SÍ!", "confirmo", "Confirmar", "Sí, confirmo", "hola sí"]) expect(isRepeatConfirmWord(body), body).toBe(true);
    for (const body of ["sí pero mañana", "no", "siempre", "", null]) expect(isRepeatConfirmWord(body), String(body)).toBe(false);
    expect(isRepeatChangeWord("Cambiar")).toBe(true);
    expect(isRepeatChangeWord("cambiar la dirección")).toBe(false);
  });

  it("reads back only the summary buttons' own ids", () => {
    const quoteId = "3f1c2a4b-1234-4abc-9def-0123456789ab";
    expect(readRepeatButtonId(repeatButtonId("confirm", quoteId))).toEqual({ action: "confirm", quoteId });
    expect(readRepeatButtonId(repeatButtonId("change", quoteId))).toEqual({ action: "change", quoteId });
    for (const id of ["repeat_confirm:not-a-uuid", `repeat_delete:${quoteId}`, `repeat_confirm:${quoteId} `, "Confirmar", "", null])
      expect(readRepeatButtonId(id), String(id)).toBeNull();
  });
});

describe("the summary as Meta takes it (issue 38)", () => {
  const quote = {
    id: "3f1c2a4b-1234-4abc-9def-0123456789ab",
    lines: [
      { productId: 6, variantId: null, title: "Caja de 20 L con dispensador", variantTitle: null, quantity: 1, unitPriceCents: 5990, lineTotalCents: 5990 },
    ],
    leftOut: [],
    garantiaCents: 0,
    creditCents: 0,
    totalCents: 5990,
    payCents: 5990,
    districtName: "Miraflores",
    address: "Av. Larco 123",
    deliveryDate: "2026-12-03",
    deliveryWindow: "manana",
  };

  it("is an interactive reply-buttons message: body, footer, Confirmar and Cambiar", () => {
    const interactive = quoteMessage(quote, { firstName: "Rosa María", validHours: 2 });
    expect(interactive.body).toBe(
      [
        "Hola Rosa, este es tu pedido de siempre:",
        "• 1 × Caja de 20 L con dispensador: S/ 59.90",
        "Entrega: jueves 3 de diciembre (mañana, 9–12)",
        "Dirección: Av. Larco 123, Miraflores",
        "Total: S/ 59.90. Pagas al recibir (contra entrega, en efectivo).",
        "¿Lo confirmamos?",
      ].join("\n\n"),
    );
    const payload = cloudApiPayload({
      id: "1",
      to: "51987654321",
      kind: "interactive",
      templateName: null,
      languageCode: null,
      parameters: null,
      interactive,
      renderedText: "",
      createdAt: new Date(),
    });
    expect(payload).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "51987654321",
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: interactive.body },
        footer: { text: "Válido por 2 horas" },
        action: {
          buttons: [
            { type: "reply", reply: { id: `repeat_confirm:${quote.id}`, title: "Confirmar" } },
            { type: "reply", reply: { id: `repeat_change:${quote.id}`, title: "Cambiar" } },
          ],
        },
      },
    });
  });

  it("stays within Meta's 1 024 characters for a long order, keeping the total and the question", () => {
    const lines = Array.from({ length: 30 }, (_, index) => ({
      ...quote.lines[0]!,
      productId: index + 1,
      title: `Producto de nombre bastante largo número ${index + 1}`,
    }));
    const interactive = quoteMessage({ ...quote, lines, address: "Calle ".repeat(30) }, { firstName: "Rosa", validHours: 2 });
    expect(interactive.body.length).toBeLessThanOrEqual(1024);
    expect(interactive.body).toContain("productos más");
    expect(interactive.body).toMatch(/¿Lo confirmamos\?$/);
    expect(interactive.body).toContain("Total: S/ 59.90.");
  });
});
