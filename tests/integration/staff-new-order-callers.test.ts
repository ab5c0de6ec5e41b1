/**
 * Issue 38, "Nuevo pedido": the office finds who is calling by phone, name, e-mail or DNI across
 * customer accounts and earlier guest orders, and reads their addresses and last order ("Lo de
 * siempre") to type the new one. Decision 0091.
 */
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { districts, orderItems, orders, users } from "@server/db/schema";
import { findCallers, loadCallerPicture, type CallerMatch } from "@server/customers/index.server";
import { previewOneTimeOrder } from "@server/checkout/index.server";
import { listSellableLines } from "@server/catalog/index.server";
import { usualQuantities } from "@core/staff-order-form";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

describe("Nuevo pedido: finding the caller and what they order (issue 38)", () => {
  let test: TestDatabase;
  let miraflores = 0;
  let sanIsidro = 0;
  const tag = randomUUID().slice(0, 6);
  const lucia = { id: `user-lucia-${tag}`, email: `lucia-${tag}@prueba.pe` };
  const pedroEmail = `pedro-${tag}@prueba.pe`;
  const orderIds: Record<string, string> = {};

  async function insertOrder(
    name: string,
    values: Partial<typeof orders.$inferInsert>,
    lines: { productId: number; variantId: number | null; quantity: number; title: string; unitPriceCents: number }[],
    createdAt: Date,
  ) {
    const [row] = await test.db
      .insert(orders)
      .values({
        status: "delivered",
        orderType: "one-time",
        customerFirstName: "Zoila",
        customerLastName: "Prueba",
        customerEmail: `zoila-${tag}@prueba.pe`,
        customerPhone: "900000000",
        documentType: "dni",
        documentNumber: "10000000",
        districtId: miraflores,
        districtName: "Miraflores",
        address: "Calle Uno 1",
        deliveryDate: "2026-03-20",
        deliveryWindow: "manana",
        subtotalCents: 6000,
        discountCents: 0,
        totalCents: 6000,
        paymentProvider: "sandbox",
        createdAt,
        ...values,
      } as typeof orders.$inferInsert)
      .returning({ id: orders.id });
    orderIds[name] = row!.id;
    await test.db
      .insert(orderItems)
      .values(lines.map((line) => ({ orderId: row!.id, ...line, lineTotalCents: line.unitPriceCents * line.quantity, sku: null, variantTitle: null })));
  }

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const named = await test.db
      .select({ id: districts.id, name: districts.name })
      .from(districts)
      .where(inArray(districts.name, ["Miraflores", "San Isidro"]));
    miraflores = named.find((row) => row.name === "Miraflores")!.id;
    sanIsidro = named.find((row) => row.name === "San Isidro")!.id;

    // An account whose profile has one phone, and an order of its own typed with another.
    await test.db.insert(users).values({
      id: lucia.id,
      name: "Lucía Torres",
      email: lucia.email,
      emailVerified: true,
      firstName: "Lucía",
      lastName: "Torres Vega",
      phone: "912345678",
      documentType: "dni",
      documentNumber: "41234567",
      address: "Av. Pardo 500",
      districtId: miraflores,
    });
    await insertOrder(
      "luciaOwn",
      {
        userId: lucia.id,
        customerFirstName: "Lucía",
        customerLastName: "Torres Vega",
        customerEmail: lucia.email,
        customerPhone: "955 555 555",
        documentNumber: "41234567",
        districtId: sanIsidro,
        districtName: "San Isidro",
        address: "Calle Los Pinos 123",
        deliveryNotes: "Puerta verde",
        addressLat: -12.0975,
        addressLng: -77.0365,
      },
      [{ productId: 6, variantId: null, quantity: 2, title: "Caja de 20 L con dispensador", unitPriceCents: 5990 }],
      new Date("2026-03-01T15:00:00Z"),
    );
    // Someone typed Lucía's e-mail at a guest checkout with his own phone: a guest, never her account (issue 39).
    await insertOrder(
      "strangerWithLuciasEmail",
      { customerFirstName: "Extraño", customerLastName: "Ajeno", customerEmail: lucia.email, customerPhone: "966000111", documentNumber: "49999999" },
      [{ productId: 6, variantId: null, quantity: 1, title: "Caja de 20 L con dispensador", unitPriceCents: 5990 }],
      new Date("2026-03-02T15:00:00Z"),
    );
    // A guest with two delivered orders at two addresses, and a later one cancelled.
    const pedro = {
      customerFirstName: "Pedro",
      customerLastName: "Ramos Díaz",
      customerEmail: pedroEmail,
      customerPhone: "+51 987 000 111",
      documentNumber: "40000001",
    };
    await insertOrder(
      "pedroFirst",
      { ...pedro, address: "Jr. Tacna 10", deliveryNotes: null },
      [{ productId: 4, variantId: 10, quantity: 1, title: "Bidón retornable hogar 20 L", unitPriceCents: 2200 }],
      new Date("2026-02-01T15:00:00Z"),
    );
    await insertOrder(
      "pedroUsual",
      { ...pedro, districtId: sanIsidro, districtName: "San Isidro", address: "Av. Arequipa 2000", deliveryNotes: "Dpto 301" },
      [
        { productId: 1, variantId: 2, quantity: 2, title: "Agua alcalina personal 625 ml", unitPriceCents: 5600 },
        { productId: 6, variantId: null, quantity: 1, title: "Caja de 20 L con dispensador", unitPriceCents: 5990 },
      ],
      new Date("2026-03-05T15:00:00Z"),
    );
    await insertOrder(
      "pedroCancelled",
      { ...pedro, status: "cancelled", address: "av. arequipa  2000", districtId: sanIsidro, districtName: "San Isidro", deliveryNotes: "dpto 301" },
      [{ productId: 3, variantId: 7, quantity: 9, title: "Agua alcalina familiar 8 L", unitPriceCents: 1590 }],
      new Date("2026-03-06T15:00:00Z"),
    );
  });
  afterAll(() => test.close());

  const references = (matches: CallerMatch[]) => matches.map((match) => match.reference);
  const lucias = () => `cuenta:${lucia.id}`;

  it("finds an account by its profile's phone, name, e-mail and DNI", async () => {
    for (const query of ["912345678", "+51 912 345 678", "lucía torres", "Torres", "luc", lucia.email, lucia.email.slice(0, 9), "41234567"]) {
      expect(references(await findCallers(test.db, query)), query).toContain(lucias());
    }
  });

  it("finds an account by the phone of an order it owns, not only its profile's", async () => {
    const [match] = (await findCallers(test.db, "955555555")).filter((candidate) => candidate.reference === lucias());
    expect(match).toMatchObject({ kind: "account", fullName: "Lucía Torres Vega", lastDistrictName: "San Isidro" });
  });

  it("finds a guest by the phone, name, e-mail and DNI of their orders, once per e-mail, named by their latest order", async () => {
    for (const query of ["987000111", "51987000111", "pedro ramos", "Ramos", pedroEmail, "40000001"]) {
      const guests = (await findCallers(test.db, query)).filter((match) => match.email === pedroEmail);
      expect(guests, query).toHaveLength(1);
      expect(guests[0]).toMatchObject({ kind: "guest", reference: `invitado:${orderIds.pedroCancelled}`, fullName: "Pedro Ramos Díaz" });
    }
  });

  it("lists a guest order typed with an account's e-mail as a guest, never as that account", async () => {
    const byStrangersPhone = await findCallers(test.db, "966000111");
    expect(references(byStrangersPhone)).toEqual([`invitado:${orderIds.strangerWithLuciasEmail}`]);
    const picture = await loadCallerPicture(test.db, `invitado:${orderIds.strangerWithLuciasEmail}`);
    expect(picture).toMatchObject({ kind: "guest", userId: null, contact: { nombre: "Extraño", telefono: "966000111" } });
    // The account's own picture holds only its own orders' addresses, not the stranger's.
    const account = await loadCallerPicture(test.db, lucias());
    expect(account!.addresses.every((address) => address.address !== "Calle Uno 1")).toBe(true);
  });

  it("does not offer an account that is not active, nor a reference that names nobody", async () => {
    const [inactive] = await test.db
      .insert(users)
      .values({
        id: `user-off-${tag}`,
        name: "Inés Apagada",
        email: `ines-${tag}@prueba.pe`,
        firstName: "Inés",
        lastName: "Apagada",
        phone: "933333333",
        status: "inactive",
      })
      .returning({ id: users.id });
    expect(references(await findCallers(test.db, "933333333"))).not.toContain(`cuenta:${inactive!.id}`);
    expect(await loadCallerPicture(test.db, `cuenta:${inactive!.id}`)).toBeNull();
    expect(await loadCallerPicture(test.db, `invitado:${orderIds.luciaOwn}`)).toBeNull();
    expect(await loadCallerPicture(test.db, "invitado:no-es-un-uuid")).toBeNull();
    expect(await loadCallerPicture(test.db, "cualquiera")).toBeNull();
    // A control character (a NUL, which PostgreSQL refuses) names nobody and finds nobody.
    expect(await loadCallerPicture(test.db, `cuenta:${lucia.id}\u0000`)).toBeNull();
    expect(await findCallers(test.db, "9123\u000045678")).toEqual([]);
  });

  it("reads an account's contact, its distinct addresses (orders, then profile) with district, reference and pin", async () => {
    const picture = (await loadCallerPicture(test.db, lucias()))!;
    expect(picture.userId).toBe(lucia.id);
    expect(picture.contact).toMatchObject({ nombre: "Lucía", apellido: "Torres Vega", correo: lucia.email, telefono: "912345678", documento: "41234567" });
    expect(picture.addresses.map(({ districtName, address, reference, point, source }) => ({ districtName, address, reference, point, source }))).toEqual([
      {
        districtName: "San Isidro",
        address: "Calle Los Pinos 123",
        reference: "Puerta verde",
        point: { lat: -12.0975, lng: -77.0365 },
        source: expect.stringMatching(/^Pedido VA-/),
      },
      { districtName: "Miraflores", address: "Av. Pardo 500", reference: "", point: null, source: "Perfil" },
    ]);
  });

  it("reads a guest's addresses once each whatever the spacing and case, newest first, and «Lo de siempre» from the last order not cancelled", async () => {
    const picture = (await loadCallerPicture(test.db, `invitado:${orderIds.pedroFirst}`))!;
    expect(picture).toMatchObject({ kind: "guest", userId: null, reference: `invitado:${orderIds.pedroCancelled}` });
    expect(picture.addresses.map((address) => [address.districtName, address.address, address.reference])).toEqual([
      ["San Isidro", "av. arequipa  2000", "dpto 301"],
      ["Miraflores", "Jr. Tacna 10", ""],
    ]);
    const [usual] = await test.db.select({ orderNumber: orders.orderNumber }).from(orders).where(eq(orders.id, orderIds.pedroUsual!));
    expect(picture.lastOrder).toMatchObject({
      orderNumber: usual!.orderNumber,
      lines: [
        { productId: 1, variantId: 2, quantity: 2 },
        { productId: 6, variantId: null, quantity: 1 },
      ],
    });
  });

  it("prices «Lo de siempre» at today's one-time catalogue prices, whatever the old order paid", async () => {
    const picture = (await loadCallerPicture(test.db, `invitado:${orderIds.pedroFirst}`))!;
    const sellable = await listSellableLines(test.db);
    const usual = usualQuantities(picture.lastOrder!.lines, sellable);
    expect(usual).toEqual({ quantities: { "1:2": "2", "6:0": "1" }, missing: [] });
    const lines = Object.entries(usual.quantities).map(([key, quantity]) => {
      const [productId, variantId] = key.split(":").map(Number) as [number, number];
      return { productId, variantId: variantId || null, quantity: Number(quantity) };
    });
    const preview = await previewOneTimeOrder(test.db, { lines, userId: null, email: pedroEmail, phone: "987000111" });
    const priceOf = (productId: number, variantId: number | null) =>
      sellable.find((line) => line.productId === productId && line.variantId === variantId)!.unitPriceCents;
    expect(preview.subtotalCents).toBe(2 * priceOf(1, 2) + priceOf(6, null));
    expect(preview).toMatchObject({ shortfallCents: 0, garantiaCents: 0, creditCents: 0, toPayCents: preview.totalCents });
  });

  it("lists a withdrawn presentation of the last order as missing instead of filling it", () => {
    const usual = usualQuantities(
      [
        { productId: 1, variantId: 2, quantity: 1, title: "A" },
        { productId: 99, variantId: null, quantity: 3, title: "Retirado" },
      ],
      [{ productId: 1, variantId: 2 }],
    );
    expect(usual).toEqual({ quantities: { "1:2": "1" }, missing: ["Retirado"] });
  });
});
