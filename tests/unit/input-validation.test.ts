import { describe, expect, it } from "vitest";
import { changePasswordSchema, loginSchema, profileSchema, registerSchema, resetPasswordSchema } from "@core/account-schemas";
import { checkoutSchema, fieldErrors, MAX_ORDER_LINES, TOO_MANY_LINES, TOO_MANY_UNITS } from "@core/checkout-schema";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { forbiddenFormCharacter } from "~/server/form-characters.server";
import { readFormData } from "~/server/request-body.server";
import { z } from "@core/zod";

/** zod's English defaults, as they reached customers before issue 9. */
const ENGLISH = /Too (small|big)|Invalid (input|option|string|email|UUID)|expected|received|Required/;

const validCheckout = {
  checkoutKey: "0b5a4c9e-6f0e-4d7a-9c55-3f1f7a0e2b11",
  purchaseType: "one-time",
  subscriptionFrequency: "mensual",
  nombre: "Rosa",
  apellido: "Quispe",
  correo: "rosa@prueba.pe",
  telefono: "987654321",
  tipo_documento: "dni",
  dni: "12345678",
  districtId: 1,
  direccion: "Av. Arequipa 123",
  referencia: "Frente al parque",
  diaHabil: 2,
  fecha: "2099-01-06",
  rangoHorario: "manana",
  items: [{ productId: 1, variantId: null, quantity: 2 }],
  clientSubtotalCents: 5000,
};

describe("redirect targets after sign-in", () => {
  it.each([
    ["/\t/evil.example/x"],
    ["/\n/evil.example"],
    ["//evil.example/x"],
    ["/\\evil.example"],
    ["\\/evil.example"],
    ["https://evil.example/"],
    ["javascript:alert(1)"],
    ["/ /evil.example"],
    ["/\u0000/evil.example"],
    ["/\u00a0/evil.example"],
    [" /dashboard"],
    ["dashboard"],
  ])("refuses %j", (target) => {
    expect(safeRedirectPath(target)).toBe("/dashboard");
  });

  it("keeps the shop's own paths, query and fragment, percent-encoding what a header cannot carry", () => {
    expect(safeRedirectPath("/dashboard/pedidos?page=2#top")).toBe("/dashboard/pedidos?page=2#top");
    expect(safeRedirectPath("/checkout")).toBe("/checkout");
    expect(safeRedirectPath("/ñandú?q=agua")).toBe("/%C3%B1and%C3%BA?q=agua");
    expect(safeRedirectPath(null, "/")).toBe("/");
  });

  it("never gives back a path a browser would read as another host", () => {
    for (const target of ["/.//evil.example", "/%2F%2Fevil.example", "/./\\evil", "/..//evil.example"]) {
      const path = safeRedirectPath(target);
      expect(new URL(path, "https://tienda.pe").host, target).toBe("tienda.pe");
      expect(path.startsWith("//"), target).toBe(false);
    }
  });
});

describe("text and ids PostgreSQL would refuse", () => {
  it.each(["nombre", "apellido", "correo", "direccion", "referencia", "dni", "razonSocial"])("refuses a NUL byte in the checkout's %s", (field) => {
    const result = checkoutSchema.safeParse({
      ...validCheckout,
      ruc: field === "razonSocial" ? "20100070970" : undefined,
      [field]: `ab\u0000c${field === "correo" ? "@prueba.pe" : ""}`,
    });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)[field]).toMatch(/no permitidos|correo válido|válido/);
  });

  it("accepts the valid checkout these cases start from", () => {
    expect(checkoutSchema.safeParse(validCheckout).success).toBe(true);
  });

  it("refuses ids and quantities past PostgreSQL's integer", () => {
    for (const patch of [
      { districtId: 2 ** 31 },
      { organizationId: 2 ** 31 },
      { items: [{ productId: 2 ** 31, variantId: null, quantity: 1 }] },
      { items: [{ productId: 1, variantId: 1e20, quantity: 1 }] },
      { items: [{ productId: 1, variantId: null, quantity: 2 ** 31 }] },
    ]) {
      const result = checkoutSchema.safeParse({ ...validCheckout, ...patch });
      expect(result.success, JSON.stringify(patch)).toBe(false);
    }
  });

  it("refuses NUL bytes in account forms: sign-in, sign-up, reset and profile", () => {
    expect(loginSchema.safeParse({ email: "a\u0000@b.pe", password: "x" }).success).toBe(false);
    expect(
      registerSchema.safeParse({ firstName: "Ro\u0000sa", lastName: "Q", email: "r@q.pe", password: "Agua1234", confirmPassword: "Agua1234" }).success,
    ).toBe(false);
    expect(
      registerSchema.safeParse({ firstName: "Rosa", lastName: "Q", email: "r\u0000@q.pe", password: "Agua1234", confirmPassword: "Agua1234" }).success,
    ).toBe(false);
    expect(resetPasswordSchema.safeParse({ token: "t\u0000", password: "Agua1234", confirmPassword: "Agua1234" }).success).toBe(false);
    expect(profileSchema.safeParse({ firstName: "Rosa", lastName: "Quispe", address: "Av.\u0000 1" }).success).toBe(false);
    expect(profileSchema.safeParse({ firstName: "Rosa", lastName: "Quispe", districtId: "2147483648" }).success).toBe(false);
    expect(profileSchema.safeParse({ firstName: "Rosa", lastName: "Quispe", districtId: "3", address: "Av. Brasil 1" }).success).toBe(true);
  });
});

describe("lines of one order", () => {
  it("merges repeated lines of the same product and variant", () => {
    const result = checkoutSchema.parse({
      ...validCheckout,
      items: [
        { productId: 1, variantId: null, quantity: 2 },
        { productId: 2, variantId: 5, quantity: 1 },
        { productId: 1, variantId: null, quantity: 3 },
      ],
    });
    expect(result.items).toEqual([
      { productId: 1, variantId: null, quantity: 5 },
      { productId: 2, variantId: 5, quantity: 1 },
    ]);
  });

  it("refuses more than 999 units however they are split over lines", () => {
    const line = { productId: 1, variantId: null, quantity: 999 };
    const result = checkoutSchema.safeParse({ ...validCheckout, items: [line, line, line, line, line] });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!).items).toBe(TOO_MANY_UNITS);
  });

  it(`refuses more than ${MAX_ORDER_LINES} lines`, () => {
    const items = Array.from({ length: MAX_ORDER_LINES + 1 }, (_, index) => ({ productId: index + 1, variantId: null, quantity: 1 }));
    const result = checkoutSchema.safeParse({ ...validCheckout, items });
    expect(fieldErrors(result.error!).items).toBe(TOO_MANY_LINES);
    expect(checkoutSchema.safeParse({ ...validCheckout, items: items.slice(0, MAX_ORDER_LINES) }).success).toBe(true);
  });
});

describe("validation messages", () => {
  it("are Spanish for every field of every form, whatever is sent", () => {
    const garbage: unknown[] = [{}, { items: [{ quantity: 0 }], districtId: -1, diaHabil: 99 }, { items: "x", correo: 5, nombre: ["a"] }, null, "x"];
    const schemas = [checkoutSchema, loginSchema, registerSchema, resetPasswordSchema, changePasswordSchema, profileSchema];
    for (const schema of schemas) {
      for (const input of garbage) {
        const result = schema.safeParse(input);
        for (const issue of result.error?.issues ?? []) expect(issue.message, JSON.stringify(input)).not.toMatch(ENGLISH);
      }
    }
  });

  it("are Spanish for a schema without messages of its own", () => {
    const result = z
      .object({ quantity: z.number().min(1), name: z.string().max(3), kind: z.enum(["a"]), email: z.email() })
      .safeParse({ quantity: 0, name: "abcd", kind: "b", email: "x" });
    expect(result.error!.issues.map((issue) => issue.message)).toEqual([
      "Debe ser como mínimo 1",
      "Debe tener como máximo 3 caracteres",
      "Elige una opción válida",
      "Ingresa un correo válido",
    ]);
  });
});

// Issue 24, defect 6 (decision 0071): one guard in readFormData for every posted form.
describe("characters no posted form takes", () => {
  const post = (path: string, fields: Record<string, string>) =>
    new Request(`http://shop.test${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  const answerTo = async (request: Request) => {
    try {
      await readFormData(request);
      return 200;
    } catch (error) {
      return (error as { init?: { status?: number } }).init?.status ?? 500;
    }
  };

  it("refuses a NUL byte in any field of any form, a hidden one too", async () => {
    expect(await answerTo(post("/admin/suscripciones/x", { intent: "charge-now", requestKey: "a\u0000b" }))).toBe(400);
    expect(await answerTo(post("/contact", { name: "Rosa", message: "ho\u0000la" }))).toBe(400);
    const login = new FormData();
    login.set("email", "x\u0000@y.pe");
    expect(forbiddenFormCharacter(post("/login", {}), login)).toBe("email");
  });

  it("refuses every control character but tab and line breaks in the staff area only", async () => {
    expect(await answerTo(post("/admin/productos/1", { title: "Agua\u0007" }))).toBe(400);
    expect(await answerTo(post("/admin/productos/1", { description: "Línea 1\r\n\tLínea 2" }))).toBe(200);
    // Customer forms keep their own field-by-field checks for these, with what was typed kept.
    expect(await answerTo(post("/contact", { message: "Hola\u0007" }))).toBe(200);
  });
});
