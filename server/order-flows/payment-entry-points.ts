import { processGarantiaReturns as processGarantiaReturnsWith } from "../garantias/index.server";
import {
  applySandboxAction as applySandboxActionWith,
  chargeCulqiToken as chargeCulqiTokenWith,
  issueCulqiCodeWithoutCheckout as issueCulqiCodeWithoutCheckoutWith,
  issuePaymentCode as issuePaymentCodeWith,
  markManualRefundDone as markManualRefundDoneWith,
  recordCulqiOrderCode as recordCulqiOrderCodeWith,
  recordPaymentFailed as recordPaymentFailedWith,
  recordPaymentSucceeded as recordPaymentSucceededWith,
  refundOrder as refundOrderWith,
  retryDueRefunds as retryDueRefundsWith,
  settleCollectedAtDoor as settleCollectedAtDoorWith,
  settleConfirmedCharge as settleConfirmedChargeWith,
  settlePaymentInTransaction as settlePaymentInTransactionWith,
  settleStaffRefund as settleStaffRefundWith,
  type PaymentOrderSteps,
} from "../payments/index.server";
import { paymentMovesOrder } from "./payment-settled";
import { applyRefundToOrder } from "./refund-applied";
import { withOrderSteps } from "./with-steps";

/**
 * What a payment's outcome does to its order (decision 0083): payments, and the domains that settle
 * or refund through it, call these inside their transactions where they used to move the order.
 */
export const paymentOrderSteps: PaymentOrderSteps = {
  ...paymentMovesOrder,
  refunded: applyRefundToOrder,
};

// The entry points below the floor that reach those steps, with them in place: routes, jobs and
// tests call these (same names, same arguments as before the steps moved up).

/** The offline sandbox provider's answers (its payment page and the tests). */
export const applySandboxAction = withOrderSteps(applySandboxActionWith, paymentOrderSteps);
/** A payment succeeded, in its own transaction. */
export const recordPaymentSucceeded = withOrderSteps(recordPaymentSucceededWith, paymentOrderSteps);
/** A payment succeeded, in the caller's transaction (subscriptions' sign-up, decision 0083). */
export const settlePaymentInTransaction = withOrderSteps(settlePaymentInTransactionWith, paymentOrderSteps);
/** A payment was declined, or a sign-up abandoned (subscriptions). */
export const recordPaymentFailed = withOrderSteps(recordPaymentFailedWith, paymentOrderSteps);
/** Money a provider confirmed, settled or refunded by the late-settlement rule (decision 0026-late-payments-and-refunds). */
export const settleConfirmedCharge = withOrderSteps(settleConfirmedChargeWith, paymentOrderSteps);
/** The driver took the money of an unpaid code at the door (a driver's stop). */
export const settleCollectedAtDoor = withOrderSteps(settleCollectedAtDoorWith, paymentOrderSteps);
/** The customer confirmed a Culqi order in its checkout: its code is kept. */
export const recordCulqiOrderCode = withOrderSteps(recordCulqiOrderCodeWith, paymentOrderSteps);
/** Culqi's checkout did not load: the shop confirms the Culqi order and keeps its code. */
export const issueCulqiCodeWithoutCheckout = withOrderSteps(issueCulqiCodeWithoutCheckoutWith, paymentOrderSteps);
/** A payment code for an attempt, from its provider: the office dictates it on "Nuevo pedido" (issue 38). */
export const issuePaymentCode = withOrderSteps(issuePaymentCodeWith, paymentOrderSteps);
/** Culqi's checkout token charged (payments.md A.7). */
export const chargeCulqiToken = withOrderSteps(chargeCulqiTokenWith, paymentOrderSteps);
/** The refunds job's pass (decision 0026-late-payments-and-refunds). */
export const retryDueRefunds = withOrderSteps(retryDueRefundsWith, paymentOrderSteps);
/** Staff "Reembolsar" (issue 10). */
export const refundOrder = withOrderSteps(refundOrderWith, paymentOrderSteps);
/** Staff mark money returned by hand. */
export const markManualRefundDone = withOrderSteps(markManualRefundDoneWith, paymentOrderSteps);
/** Calls the provider for a recorded staff refund (the staff cancellation's). */
export const settleStaffRefund = withOrderSteps(settleStaffRefundWith, paymentOrderSteps);
/** The garantías job (decision 0075): its refunds move their orders when the money is back. */
export const processGarantiaReturns = withOrderSteps(processGarantiaReturnsWith, paymentOrderSteps);
