export { applySandboxAction, findSandboxPayment, SANDBOX_CODE_HOURS, type SandboxAction } from "./sandbox";
export { PaymentNotFoundError, recordPaymentCodeIssued, recordPaymentFailed, recordPaymentSucceeded, type PaymentMethod } from "./settle";

/**
 * The active payment provider. The offline sandbox is the default; the Culqi adapter is selected
 * by its keys once it lands (issue 3, second part).
 */
export function activePaymentProvider() {
  return { id: "sandbox" as const, paymentPath: (paymentId: string) => `/pago/sandbox/${paymentId}` };
}
