/**
 * The issuer printed on every boleta and factura (shared/reference/payments.md D.4).
 *
 * DEMO DATA — REPLACE BEFORE ISSUING REAL DOCUMENTS: the razón social, RUC and domicilio fiscal
 * below are placeholders for the demo shop, not a registered taxpayer. Put the company's own
 * data from its SUNAT Ficha RUC here (one place: the PDF reads nothing else).
 */
export const INVOICE_ISSUER = {
  /** Nombre comercial, the brand the customer knows. */
  brandName: "Vida Alcalina",
  /** Razón social as registered with SUNAT. */
  legalName: "VIDA ALCALINA S.A.C.",
  /** 11 digits; this one only passes the check-digit test (demo). */
  ruc: "20601234565",
  fiscalAddress: "Av. Benavides 1555, of. 302, Miraflores, Lima, Perú",
  email: "hola@vidaalcalina.pe",
  phone: "+51 987 654 321",
  /** Where the printed representation says the customer can check the document. */
  consultationUrl: "https://vidaalcalina.pe/dashboard/facturas",
  isDemo: true,
} as const;
