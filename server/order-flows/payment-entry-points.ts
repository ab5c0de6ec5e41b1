import { processGarantiaReturns as processGarantiaReturnsWith } from "../garantias/index.server";
import {
  chargeCulqiToken as chargeCulqiTokenWith,
  markManualRefundDone as markManualRefundDoneWith,
  refundOrder as refundOrderWith,
  retryDueRefunds as retryDueRefundsWith,
  settleStaffRefund as settleStaffRefundWith,
  type PaymentOrderSteps,
} from "../payments/index.server";
import { applyRefundToOrder } from "./refund-applied";
import { withOrderSteps } from "./with-steps";

/**
 * What a payment's outcome does to its order (decision 0083): payments, and the domains that settle
 * or refund through it, call these inside their transactions where they used to move the order.
 */
export const paymentOrderSteps: PaymentOrderSteps = {
  refunded: applyRefundToOrder,
};

// The entry points below the floor that reach those steps, with them in place: routes, jobs and
// tests call these (same names, same arguments as before the steps moved up).

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
