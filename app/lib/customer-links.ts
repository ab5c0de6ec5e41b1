/** Where a guest buyer's pages live (decision 0061): named by one of their orders, so the e-mail never appears in the URL. */
export const guestPath = (orderId: string) => `/admin/clientes/invitado/${orderId}`;

/** Where a person who never bought lives (decision 0064): named by one of their rows, never by their e-mail. */
export const personPath = (reference: string) => `/admin/clientes/persona/${reference}`;

/** The word an admin types to confirm an anonymisation (decisions 0051, 0061). */
export const ANONYMISE_CONFIRMATION = "ANONIMIZAR";
