import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { districtsToJoin, readDistrict } from "../content/index.server";
import { users } from "../db/schema";
import { forgetSignedInUsers } from "./current-user";
import { inTransaction } from "../db/transaction";
import { saveProfileWhatsappChoice } from "../whatsapp/index.server";
import { whatsappNumber } from "@core/whatsapp";

export interface Profile {
  id: string;
  email: string;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  fullName: string;
  documentType: string | null;
  documentNumber: string | null;
  phone: string | null;
  address: string | null;
  districtId: number | null;
  districtName: string | null;
  /** The address's pin (issue 26); null: the district's centre stands in. */
  point: { lat: number; lng: number } | null;
  createdAt: string;
}

export async function getProfile(db: Database, userId: string): Promise<Profile | null> {
  const [row] = await db
    .select({ user: users, districtName: districtsToJoin.name })
    .from(users)
    .leftJoin(districtsToJoin, eq(districtsToJoin.id, users.districtId))
    .where(eq(users.id, userId));
  return row ? profileFromRow(row) : null;
}

/** A profile from a users row and its district's name (also read by the dashboard's one statement). */
export function profileFromRow({ user, districtName }: { user: typeof users.$inferSelect; districtName: string | null }): Profile {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: `${user.firstName} ${user.lastName}`.trim(),
    documentType: user.documentType,
    documentNumber: user.documentNumber,
    phone: user.phone,
    address: user.address,
    districtId: user.districtId,
    districtName,
    point: user.addressLat !== null && user.addressLng !== null ? { lat: user.addressLat, lng: user.addressLng } : null,
    createdAt: user.createdAt.toISOString(),
  };
}

/** `point` absent: the pin is left as it is; null: removed. */
export type ProfileUpdate = Pick<Profile, "firstName" | "lastName" | "documentType" | "documentNumber" | "phone" | "address" | "districtId"> &
  Partial<Pick<Profile, "point">>;

/**
 * The email is not part of the update: spec §5, 'El correo no se puede modificar'. With `whatsapp`
 * (the profile's opt-in box, issue 25) the choice is saved in the same transaction as the phone.
 */
export async function updateProfile(
  db: Database,
  userId: string,
  update: ProfileUpdate,
  whatsapp?: { optIn: boolean; clientAddress: string | null; userAgent: string | null },
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (update.districtId !== null) {
    if (!(await readDistrict(db, update.districtId))) return { ok: false, message: "Selecciona un distrito de la lista" };
  }
  const now = new Date();
  const { point, ...columns } = update;
  await inTransaction(db, async (tx) => {
    const [before] = await tx.select({ phone: users.phone, email: users.email }).from(users).where(eq(users.id, userId)).for("update");
    await tx
      .update(users)
      .set({
        ...columns,
        ...(point === undefined ? {} : { addressLat: point?.lat ?? null, addressLng: point?.lng ?? null }),
        name: `${update.firstName} ${update.lastName}`,
        updatedAt: now,
      })
      .where(eq(users.id, userId));
    if (whatsapp && before) {
      const choice = { ...whatsapp, phone: whatsappNumber(update.phone), previousPhone: whatsappNumber(before.phone), userId, email: before.email };
      await saveProfileWhatsappChoice(tx, choice, now);
    }
  });
  // The account header shows the signed-in name (server/accounts/current-user.ts).
  forgetSignedInUsers();
  return { ok: true };
}
