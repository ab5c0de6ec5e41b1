import { eq } from "drizzle-orm";
import { whatsappNumber } from "@core/whatsapp";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { isPhoneProvenFor, recordPhoneProof } from "../contacts/index.server";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import { inTransaction } from "../db/transaction";

export type PhoneConfirmationResult = { ok: true; message: string } | { ok: false; reason: "not_found" | "invalid"; message: string };

/**
 * "Confirmado por teléfono" (issue 39, decision 0088): staff called the account's own number and
 * the person on it said they are the customer. The one way besides WhatsApp itself for a number to
 * become theirs; audited with who recorded it. The account's row is locked first (decision 0025).
 */
export async function confirmCustomerPhoneByCall(db: Database, actor: StaffActor, userId: string, now: Date): Promise<PhoneConfirmationResult> {
  return inTransaction(db, async (tx) => {
    const [customer] = await tx
      .select({ id: users.id, role: users.role, status: users.status, phone: users.phone })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!customer || customer.role !== "customer" || customer.status === "anonymized")
      return { ok: false, reason: "not_found", message: "No encontramos a ese cliente." };
    const phone = whatsappNumber(customer.phone);
    if (!phone) return { ok: false, reason: "invalid", message: "La cuenta no tiene un celular peruano en su perfil: no hay número que confirmar." };
    if (await isPhoneProvenFor(tx, phone, { userId, orderId: null })) return { ok: true, message: "Ese celular ya estaba confirmado como del cliente." };
    await recordPhoneProof(tx, { phone, userId, orderId: null, method: "staff_phone", staffUserId: actor.id }, now);
    await recordStaffAction(tx, actor, {
      action: "customer.phone_confirmed",
      entityType: "user",
      entityId: userId,
      before: null,
      after: { method: "staff_phone" },
    });
    return { ok: true, message: "Celular confirmado por teléfono: queda registrado a tu nombre." };
  });
}
