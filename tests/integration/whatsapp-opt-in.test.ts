/**
 * Issue 25: the WhatsApp opt-in at sign-up and in the profile — separate from promotions, unticked
 * by default, recorded with its time and text — and what an unticked box does (nothing, unless it
 * takes back an opt-in the profile showed).
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { register, updateProfile } from "@server/accounts/index.server";
import { promotionalConsentEvents, users, whatsappConsentEvents } from "@server/db/schema";
import { currentWhatsappConsent } from "@server/whatsapp/index.server";
import { profileSchema, registerSchema } from "@core/account-schemas";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

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

  it("records a sign-up's ticked box for its number with time, text and who asked; promotions stay untouched", async () => {
    const parsed = form({ whatsapp: "on", phone: "+51 912 345 678" });
    if (!parsed.success) throw new Error("invalid");
    const before = new Date();
    const result = await register(test.db, { ...parsed.data, client: `r-${randomUUID()}`, whatsappConsent: evidence });
    expect(result.ok).toBe(true);
    const [user] = await test.db.select().from(users).where(eq(users.email, parsed.data.email));
    expect(user!.phone).toBe("912345678");
    const [event] = await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.userId, user!.id));
    expect(event).toMatchObject({ phone: "51912345678", granted: true, source: "signup", email: parsed.data.email, ...evidence });
    expect(event!.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(event!.textShown).toBe(
      "Quiero recibir avisos de mis pedidos por WhatsApp. Vida Alcalina te escribirá por WhatsApp solo sobre tus pedidos, entregas, pagos y tu suscripción. Para dejar de recibirlos, responde BAJA.",
    );
    expect(await test.db.select().from(promotionalConsentEvents).where(eq(promotionalConsentEvents.email, parsed.data.email))).toEqual([]);
  });

  it("keeps an unticked sign-up box out of the record", async () => {
    const parsed = form({ phone: "913 000 111" });
    if (!parsed.success) throw new Error("invalid");
    await register(test.db, { ...parsed.data, client: `r-${randomUUID()}`, whatsappConsent: null });
    expect(await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, "51913000111"))).toEqual([]);
  });

  it("opts the profile's number in and out, follows a changed number, and writes nothing for a box left as it was", async () => {
    const id = `user-${randomUUID()}`;
    await test.db.insert(users).values({ id, name: "Ana Paz", email: `${id}@prueba.pe`, emailVerified: true, firstName: "Ana", lastName: "Paz" });
    const save = (fields: Record<string, string>) => {
      const parsed = profileSchema.parse({ firstName: "Ana", lastName: "Paz", ...fields });
      const { whatsapp, ...update } = parsed;
      return updateProfile(test.db, id, update, { optIn: whatsapp, ...evidence });
    };
    const events = () => test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.userId, id));

    await save({ phone: "914 111 222" });
    expect(await events()).toEqual([]);
    await save({ phone: "914 111 222", whatsapp: "on" });
    await save({ phone: "914 111 222", whatsapp: "on" });
    expect((await events()).map((event) => [event.phone, event.granted, event.source])).toEqual([["51914111222", true, "profile"]]);
    // A new number, box still ticked: the new one opts in; unticked later, both are out.
    await save({ phone: "915 222 333", whatsapp: "on" });
    expect(await currentWhatsappConsent(test.db, "51915222333")).toMatchObject({ granted: true });
    await save({ phone: "915 222 333" });
    expect(await currentWhatsappConsent(test.db, "51915222333")).toMatchObject({ granted: false, source: "profile" });
    expect(await currentWhatsappConsent(test.db, "51914111222")).toMatchObject({ granted: true });
    await save({ phone: "916 333 444" });
    expect(await currentWhatsappConsent(test.db, "51916333444")).toBeNull();
    // Without WhatsApp the profile form has no box, and a save says nothing about it.
    await updateProfile(test.db, id, profileSchema.parse({ firstName: "Ana", lastName: "Paz", phone: "914 111 222" }) as never);
    expect(await currentWhatsappConsent(test.db, "51914111222")).toMatchObject({ granted: true });
  });
});
