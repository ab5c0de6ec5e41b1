/**
 * Issue 24 (decision 0072): one strict rule for every e-mail address the shop accepts, stores or
 * writes to. The old "simple pattern" (`^[^\s@]+@[^\s@]+\.[^\s@]+$`) let through values that
 * nodemailer reads as another address, or several: what the shop stored was not where it wrote.
 */
import addressparser from "nodemailer/lib/addressparser";
import { describe, expect, it } from "vitest";
import { emailField, forgotPasswordSchema, registerSchema } from "@core/account-schemas";
import { checkoutSchema, fieldErrors } from "@core/checkout-schema";
import { complaintFormSchema } from "@core/complaints-book";
import { contactMessageSchema } from "@core/contact-schema";
import { siteSettingsSchema } from "@core/content-schemas";
import { EMAIL_MAX_LENGTH, emailAddress, isEmailAddress } from "@core/email-address";
import { z } from "@core/zod";
import { createStaffSchema } from "~/lib/team-schemas";

const ORDINARY = [
  "ana@example.pe",
  "rosa.quispe@gmail.com",
  "r.quispe+pedidos@sub.dominio.com.pe",
  "juan_perez-2@mi-empresa.org",
  "A.Torres@Example.PE",
  "x@y.io",
];

/** Each hostile value, and what nodemailer would make of it (the reason for the rule). */
const HOSTILE = [
  'x"><svg/onload=alert(1)>@dominio.pe', // a quoted local part: another address, and markup
  "x<otro@ajeno.pe>", // goes to otro@ajeno.pe
  "ana,otro@ajeno.pe", // two recipients: "ana" and otro@ajeno.pe
  "ana;otro@ajeno.pe",
  "ana(comentario)@dominio.pe", // a comment: the name, not the address
  "ana@dominio.pe(x)",
  "ana@dominio.pe<x.pe", // goes to x.pe, with "ana@dominio.pe" as the display name
  "ana:otro@ajeno.pe", // a group named "ana": goes to otro@ajeno.pe
];

const OTHERWISE_INVALID = [
  "",
  "ana",
  "ana@",
  "ana@dominio",
  "@dominio.pe",
  ".ana@dominio.pe",
  "ana.@dominio.pe",
  "an..a@dominio.pe",
  "ana@-dominio.pe",
  "ana@dominio-.pe",
  "ana@dominio..pe",
  "ana@dominio.p",
  "ana@dominio.pe1",
  "josé@dominio.pe",
  "ana@dominió.pe",
  "a b@dominio.pe",
  "ana@dominio.pe\r\nBcc: otro@ajeno.pe",
  "ana\u0000@dominio.pe",
  // Outside the plain form people type, though nodemailer would take each literally: refused by
  // choice, so no address needs quoting anywhere it is written (mail headers, CSV, HTML, links).
  "a%b@dominio.pe",
  "x'y@dominio.pe",
  '"otro@ajeno.pe"@dominio.pe',
  "ana@dominio.pe>x.pe",
  "ana@[192.168.0.1]",
  `${"a".repeat(65)}@dominio.pe`,
  `ana@${"d".repeat(EMAIL_MAX_LENGTH)}.pe`,
];

/** What nodemailer reads a recipient as: the plain list of addresses it would write to. */
const recipientsOf = (value: string) => addressparser(value, { flatten: true }).map((entry) => entry.address);

describe("the shop's one e-mail rule", () => {
  it.each(ORDINARY)("accepts %s, which nodemailer reads as exactly that one address and zod's z.email() accepts too", (address) => {
    expect(isEmailAddress(address)).toBe(true);
    expect(recipientsOf(address)).toEqual([address]);
    // better-auth checks sign-ups with z.email(): an address we accept is never refused there.
    expect(z.email().safeParse(address).success).toBe(true);
  });

  it.each(HOSTILE)("refuses %s, which the old pattern took and nodemailer reads as something else", (address) => {
    expect(/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)).toBe(true);
    expect(recipientsOf(address)).not.toEqual([address]);
    expect(isEmailAddress(address)).toBe(false);
  });

  it.each(OTHERWISE_INVALID)("refuses %j", (address) => {
    expect(isEmailAddress(address)).toBe(false);
  });

  it("trims and lower-cases what a form sends, and answers in Spanish", () => {
    expect(emailAddress().parse("  Ana.Torres@Example.PE ")).toBe("ana.torres@example.pe");
    expect(emailAddress().safeParse('x"><svg/onload=alert(1)>@dominio.pe').error?.issues[0]?.message).toBe("Ingresa un correo válido");
    expect(emailField.safeParse("").error?.issues[0]?.message).toBe("Ingresa tu correo");
  });
});

describe("every form that takes an address uses it", () => {
  const hostile = 'x"><svg/onload=alert(1)>@dominio.pe';
  const forms: Array<[string, z.ZodType, string]> = [
    ["checkout", checkoutSchema.shape.correo, "Ingresa un correo válido"],
    ["sign-up", registerSchema.in.shape.email, "Ingresa un correo válido"],
    ["password recovery", forgotPasswordSchema.shape.email, "Ingresa un correo válido"],
    ["contact", contactMessageSchema.shape.email, "Ingresa un correo válido"],
    ["Libro de Reclamaciones", complaintFormSchema.shape.email, "Ingresa un correo válido"],
    ["new staff member", createStaffSchema.shape.email, "Ingresa un correo válido"],
    ["the shop's contact address", siteSettingsSchema.shape.contactEmail, "Escribe un correo válido, por ejemplo hola@tumarca.pe"],
  ];

  it.each(forms)("the %s form refuses a hostile address with a Spanish message", (_form, field, message) => {
    for (const address of HOSTILE) expect(field.safeParse(address).error?.issues[0]?.message).toBe(message);
    expect(field.safeParse("ana@example.pe").success).toBe(true);
  });

  it("names the checkout's field, so the form shows the message beside what was typed", () => {
    const parsed = checkoutSchema.safeParse({ correo: hostile });
    expect(fieldErrors(parsed.error!).correo).toBe("Ingresa un correo válido");
  });
});
