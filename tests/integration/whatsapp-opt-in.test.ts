/**
 * Issue 25: the WhatsApp opt-in at sign-up and in the profile — separate from promotions, unticked
 * by default, recorded with its time and text — and what an unticked box does (nothing, unless it
 * takes back an opt-in the profile showed). Issue 39: a typed number proves nothing, so a ticked
 * box asks the number itself, and the opt-in (and the proof that the number is the account's)
 * exists once it answers SÍ; an unticked box speaks only for numbers proven the account's.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { register, updateProfile } from "@server/accounts/index.server";
import {
  phoneProofs,
  promotionalConsentEvents,
  users,
  whatsappConsentEvents,
  whatsappInboundMessages,
  whatsappMessages,
  whatsappOptInAsks,
} from "@server/db/schema";
import { accountWhatsappState, currentWhatsappConsent, recordWhatsappConsent } from "@server/whatsapp/index.server";
import { profileSchema, registerSchema } from "@core/account-schemas";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { writeOnWhatsapp } from "../support/whatsapp-answer";

/** The local channel has no Meta number; the webhook handler only skips changes for another one. */
const PHONE_NUMBER_ID = "local";
const BOX_TEXT =
  "Quiero recibir avisos de mis pedidos por WhatsApp. Vida Alcalina te escribirá por WhatsApp solo sobre tus pedidos, entregas, pagos y tu suscripción, y, si aceptas recibir promociones, para recordarte cuándo se te estaría acabando el agua. Para dejar de recibirlos, responde BAJA.";

describe("the WhatsApp opt-in at sign-up and in the profile (issue 25)", () => {
  let test: TestDatabase;
  const evidence = { clientAddress: "198.51.100.4", userAgent: "Prueba/2.0" };

  beforeAll(async () => {
    // The local demo's channel: WhatsApp is on, so the boxes exist.
    vi.stubEnv("WHATSAPP_LOCAL_OUTBOX", "true");
    test = await createTestDatabase("seeded");
  });
  afterAll(async () => {
    await test?.close();
    vi.unstubAllEnvs();
  });

  const form = (overrides: Record<string, string>) =>
    registerSchema.safeParse({
      firstName: "Rosa",
      lastName: "Quispe",
      email: `alta-${randomUUID().slice(0, 8)}@prueba.pe`,
      password: "Agua1234",
      confirmPassword: "Agua1234",
      ...overrides,
    });

  it("refuses the box at sign-up without a mobile, and a number that is not one, in Spanish", () => {
    const without = form({ whatsapp: "on" });
    expect(without.success).toBe(false);
    expect(without.error!.issues.map((issue) => [issue.path[0], issue.message])).toEqual([["phone", "Ingresa tu celular para recibir avisos por WhatsApp"]]);
    const landline = form({ whatsapp: "on", phone: "01 555 1234" });
    expect(landline.error!.issues[0]!.message).toBe("Ingresa un celular válido de 9 dígitos que empiece con 9");
    expect(form({ phone: "" }).success).toBe(true);
  });

  const questionsTo = (phone: string) =>
    test.db
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.toPhone, phone), eq(whatsappMessages.kind, "opt_in_ask")));

  it("asks the number of a sign-up's ticked box, and records its SÍ with time, text and who asked; promotions stay untouched", async () => {
    const parsed = form({ whatsapp: "on", phone: "+51 912 345 678" });
    if (!parsed.success) throw new Error("invalid");
    const before = new Date();
    const result = await register(test.db, { ...parsed.data, client: `r-${randomUUID()}`, whatsappConsent: evidence });
    expect(result.ok).toBe(true);
    const [user] = await test.db.select().from(users).where(eq(users.email, parsed.data.email));
    expect(user!.phone).toBe("912345678");

    // Issue 39: the box asked the number once; until it answers there is no opt-in and no proof.
    const [ask, ...moreAsks] = await test.db.select().from(whatsappOptInAsks).where(eq(whatsappOptInAsks.userId, user!.id));
    expect(moreAsks).toEqual([]);
    expect(ask).toMatchObject({
      phone: "51912345678",
      source: "signup",
      email: parsed.data.email,
      orderId: null,
      answeredAt: null,
      textShown: BOX_TEXT,
      ...evidence,
    });
    expect(ask!.sentAt).not.toBeNull();
    const questions = await questionsTo("51912345678");
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ templateName: "confirmar_avisos", userId: user!.id, orderId: null, status: "pending" });
    expect(questions[0]!.parameters!.body).toEqual(["Vida Alcalina", "tu cuenta"]);
    expect(await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, "51912345678"))).toEqual([]);
    expect(await test.db.select().from(phoneProofs).where(eq(phoneProofs.phone, "51912345678"))).toEqual([]);
    expect(await accountWhatsappState(test.db, user!.id, "51912345678", new Date())).toBe("asked");

    // The number answers SÍ: the opt-in is recorded with the box's text and who asked, and the number is the account's.
    const answeredAt = new Date();
    await writeOnWhatsapp(test.db, "51912345678", "Sí", answeredAt, PHONE_NUMBER_ID);
    const [event, ...moreEvents] = await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, "51912345678"));
    expect(moreEvents).toEqual([]);
    expect(event).toMatchObject({ granted: true, source: "reply", userId: user!.id, email: parsed.data.email, orderId: null, ...evidence });
    expect(event!.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(event!.textShown).toBe(`${BOX_TEXT} Respuesta por WhatsApp: Sí`);
    expect(await test.db.select().from(phoneProofs).where(eq(phoneProofs.phone, "51912345678"))).toEqual([
      expect.objectContaining({ userId: user!.id, orderId: null, method: "whatsapp_reply" }),
    ]);
    const [answer] = await test.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.fromId, "51912345678"));
    expect(answer).toMatchObject({ intent: "opt_in", body: "Sí" });
    expect(answer!.attendedAt).not.toBeNull();
    expect(await accountWhatsappState(test.db, user!.id, "51912345678", new Date())).toBe("on");
    expect(await test.db.select().from(promotionalConsentEvents).where(eq(promotionalConsentEvents.email, parsed.data.email))).toEqual([]);
  });

  it("keeps an unticked sign-up box out of the record", async () => {
    const parsed = form({ phone: "913 000 111" });
    if (!parsed.success) throw new Error("invalid");
    await register(test.db, { ...parsed.data, client: `r-${randomUUID()}`, whatsappConsent: null });
    expect(await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, "51913000111"))).toEqual([]);
    expect(await test.db.select().from(whatsappOptInAsks).where(eq(whatsappOptInAsks.phone, "51913000111"))).toEqual([]);
    expect(await questionsTo("51913000111")).toEqual([]);
  });

  it("asks the profile's number, opts it in on its SÍ and out when unticked, follows a changed number, and writes nothing for a box left as it was", async () => {
    const id = `user-${randomUUID()}`;
    await test.db.insert(users).values({ id, name: "Ana Paz", email: `${id}@prueba.pe`, emailVerified: true, firstName: "Ana", lastName: "Paz" });
    const save = (fields: Record<string, string>) => {
      const parsed = profileSchema.parse({ firstName: "Ana", lastName: "Paz", ...fields });
      const { whatsapp, ...update } = parsed;
      return updateProfile(test.db, id, update, { optIn: whatsapp, ...evidence });
    };
    const events = () => test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.userId, id));
    const state = (phone: string) => accountWhatsappState(test.db, id, phone, new Date());
    const answer = (phone: string) => writeOnWhatsapp(test.db, phone, "SI", new Date(), PHONE_NUMBER_ID);

    await save({ phone: "914 111 222" });
    expect(await events()).toEqual([]);
    expect(await questionsTo("51914111222")).toEqual([]);
    // Ticked: the number is asked, once however often the box is saved; no opt-in until it answers.
    await save({ phone: "914 111 222", whatsapp: "on" });
    await save({ phone: "914 111 222", whatsapp: "on" });
    expect(await events()).toEqual([]);
    expect(await questionsTo("51914111222")).toEqual([expect.objectContaining({ userId: id, orderId: null, templateName: "confirmar_avisos" })]);
    expect(await state("51914111222")).toBe("asked");
    await answer("51914111222");
    expect((await events()).map((event) => [event.phone, event.granted, event.source])).toEqual([["51914111222", true, "reply"]]);
    expect(await state("51914111222")).toBe("on");
    // Proven the account's now: the box saved again as it was writes nothing and asks nothing.
    await save({ phone: "914 111 222", whatsapp: "on" });
    expect(await events()).toHaveLength(1);
    expect(await questionsTo("51914111222")).toHaveLength(1);

    // A new number, box still ticked: the new one is asked and opts in on its SÍ; unticked later, it is out.
    await save({ phone: "915 222 333", whatsapp: "on" });
    expect(await currentWhatsappConsent(test.db, "51915222333")).toBeNull();
    expect(await state("51915222333")).toBe("asked");
    await answer("51915222333");
    expect(await currentWhatsappConsent(test.db, "51915222333")).toMatchObject({ granted: true, source: "reply" });
    await save({ phone: "915 222 333" });
    expect(await currentWhatsappConsent(test.db, "51915222333")).toMatchObject({ granted: false, source: "profile" });
    expect(await state("51915222333")).toBe("off");
    expect(await currentWhatsappConsent(test.db, "51914111222")).toMatchObject({ granted: true });
    // Ticked again, a number proven the account's opts in at once, with the box's source, and is not asked again.
    await save({ phone: "915 222 333", whatsapp: "on" });
    expect(await currentWhatsappConsent(test.db, "51915222333")).toMatchObject({ granted: true, source: "profile" });
    expect(await questionsTo("51915222333")).toHaveLength(1);
    await save({ phone: "915 222 333" });
    expect(await currentWhatsappConsent(test.db, "51915222333")).toMatchObject({ granted: false, source: "profile" });
    await save({ phone: "916 333 444" });
    expect(await currentWhatsappConsent(test.db, "51916333444")).toBeNull();

    // Unticked while the question waits: the question is withdrawn, and a later SÍ opts nothing in.
    await save({ phone: "917 444 555", whatsapp: "on" });
    expect(await state("51917444555")).toBe("asked");
    await save({ phone: "917 444 555" });
    expect(await state("51917444555")).toBe("off");
    await answer("51917444555");
    expect(await currentWhatsappConsent(test.db, "51917444555")).toBeNull();
    expect(await test.db.select().from(phoneProofs).where(eq(phoneProofs.phone, "51917444555"))).toEqual([]);

    // Another person's number typed here: its opt-in is theirs. The profile shows it off, a tick
    // asks, and an unticked box leaves their opt-in alone.
    const other = `user-${randomUUID()}`;
    await test.db.insert(users).values({ id: other, name: "Eva Ríos", email: `${other}@prueba.pe`, emailVerified: true, firstName: "Eva", lastName: "Ríos" });
    await recordWhatsappConsent(test.db, { phone: "51918555666", granted: true, source: "profile", userId: other }, new Date());
    await test.db.insert(phoneProofs).values({ phone: "51918555666", userId: other, orderId: null, method: "staff_phone", createdAt: new Date() });
    await save({ phone: "918 555 666" });
    expect(await currentWhatsappConsent(test.db, "51918555666")).toMatchObject({ granted: true, source: "profile" });
    expect(await state("51918555666")).toBe("off");
    await save({ phone: "918 555 666", whatsapp: "on" });
    expect(await state("51918555666")).toBe("asked");
    expect(await questionsTo("51918555666")).toEqual([expect.objectContaining({ userId: id })]);
    await save({ phone: "918 555 666" });
    expect(await currentWhatsappConsent(test.db, "51918555666")).toMatchObject({ granted: true, source: "profile" });
    expect((await events()).filter((event) => event.phone === "51918555666")).toEqual([]);

    // Without WhatsApp the profile form has no box, and a save says nothing about it.
    await updateProfile(test.db, id, profileSchema.parse({ firstName: "Ana", lastName: "Paz", phone: "914 111 222" }) as never);
    expect(await currentWhatsappConsent(test.db, "51914111222")).toMatchObject({ granted: true });
    expect(await state("51914111222")).toBe("on");
  });
});
