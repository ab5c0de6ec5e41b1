/**
 * Rows of a data subject written straight into the database, for the tests of /admin/clientes and
 * its Ley 29733 requests (decisions 0051, 0061, 0064): a delivered order and a Libro de
 * Reclamaciones sheet, each with plausible defaults a test overrides where it matters.
 */
import { randomUUID } from "node:crypto";
import type { Database } from "@server/db/client";
import { complaints, orders } from "@server/db/schema";

export async function insertOrder(db: Database, values: Partial<typeof orders.$inferInsert> & { districtId: number }): Promise<string> {
  const [row] = await db
    .insert(orders)
    .values({
      status: "delivered",
      orderType: "one-time",
      customerFirstName: "Marisol",
      customerLastName: "Huamaní Torres",
      customerEmail: "marisol.huamani@prueba.pe",
      customerPhone: "+51 981 234 567",
      documentType: "dni",
      documentNumber: "41234567",
      districtName: "Miraflores",
      address: "Jr. Las Camelias 742, dpto 3",
      deliveryNotes: "Tocar el timbre verde",
      deliveryDate: "2026-03-20",
      deliveryWindow: "manana",
      subtotalCents: 5000,
      discountCents: 0,
      totalCents: 5000,
      paymentProvider: "sandbox",
      paymentMethod: "card",
      ...values,
    })
    .returning({ id: orders.id });
  return row!.id;
}

/** A sheet filed under `email`, numbered at random in a year no other test files in. */
export async function insertComplaint(db: Database, email: string, values: Partial<typeof complaints.$inferInsert> = {}): Promise<string> {
  const year = values.year ?? 2099;
  const number = Math.floor(Math.random() * 1_000_000_000);
  const filedAt = values.filedAt ?? new Date("2026-03-21T15:00:00Z");
  const [row] = await db
    .insert(complaints)
    .values({
      year,
      number,
      sheetNumber: `${String(number).padStart(9, "0")}-${year}`,
      accessTokenHash: randomUUID(),
      filedAt,
      filedOn: filedAt.toISOString().slice(0, 10),
      issuerLegalName: "VIDA ALCALINA S.A.C.",
      issuerRuc: "20123456789",
      issuerAddress: "Av. Benavides 1555",
      consumerNames: "Marisol",
      consumerSurnames: "Huamaní Torres",
      documentType: "dni",
      documentNumber: "41234567",
      address: "Jr. Las Camelias 742",
      phone: "981234567",
      email,
      goodType: "producto",
      goodDescription: "Bidón de 20 L",
      kind: "reclamo",
      detail: "Llegó abollado.",
      consumerRequest: "Cambio del bidón.",
      ...values,
    })
    .returning({ id: complaints.id });
  return row!.id;
}
