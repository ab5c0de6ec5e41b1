import { data } from "react-router";

export const CUSTOMER_NOT_FOUND = "Cliente no encontrado";

/** Account ids are better-auth's (letters, digits, `-`, `_`): anything else is an unknown customer, a 404. */
export function customerIdFrom(params: { customerId?: string }): string {
  const id = params.customerId ?? "";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw data(CUSTOMER_NOT_FOUND, { status: 404 });
  return id;
}
