/**
 * The form the Culqi payment page posts to its action: the token from Culqi's checkout, the
 * Culqi3DS device id, and, on the second charge after a 3DS review, the bank's 3DS values
 * (payments.md A.4, A.15). Built here in the browser and read here again in the action.
 */
import { z } from "@core/zod";

/** The values Culqi3DS posts back as `parameters3DS`; forwarded unchanged to Culqi. */
export type Parameters3DS = Record<string, string | number | boolean | null>;

export interface CulqiChargeForm {
  token: string;
  deviceFingerprint?: string;
  authentication3DS?: Parameters3DS;
}

const tokenSchema = z.string().regex(/^(tkn|ype)_(test|live)_\w+$/);

// Culqi documents eci, xid, cavv, protocolVersion and directoryServerTransactionId; the shape is
// checked loosely (flat, small, scalar values) so a new field from Culqi3DS does not break payment.
export const parameters3DSSchema = z
  .record(z.string().min(1).max(64), z.union([z.string().max(1024), z.number(), z.boolean(), z.null()]))
  .refine((values) => Object.keys(values).length > 0 && Object.keys(values).length <= 20);

/** Printable ASCII, as Culqi's device ids are; anything else is dropped rather than refusing the payment. */
const deviceFingerprintSchema = z.string().regex(/^[\x21-\x7e]{1,256}$/);

export function culqiChargeFormData(charge: CulqiChargeForm): Record<string, string> {
  return {
    token: charge.token,
    ...(charge.deviceFingerprint ? { deviceFingerprint: charge.deviceFingerprint } : {}),
    ...(charge.authentication3DS ? { authentication3DS: JSON.stringify(charge.authentication3DS) } : {}),
  };
}

/** Null when the token or the 3DS values are malformed: the action answers with the spec's charge error. */
export function readCulqiChargeForm(form: FormData): CulqiChargeForm | null {
  const token = tokenSchema.safeParse(form.get("token"));
  if (!token.success) return null;
  const charge: CulqiChargeForm = { token: token.data };

  const device = deviceFingerprintSchema.safeParse(form.get("deviceFingerprint"));
  if (device.success) charge.deviceFingerprint = device.data;

  const rawAuthentication = form.get("authentication3DS");
  if (typeof rawAuthentication === "string" && rawAuthentication) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawAuthentication);
    } catch {
      return null;
    }
    const authentication = parameters3DSSchema.safeParse(parsed);
    if (!authentication.success) return null;
    charge.authentication3DS = authentication.data;
  }
  return charge;
}
