import type { orders, refunds } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

/**
 * What a payment's outcome does to its order (decision 0083). Payments writes its own rows and
 * calls these where it used to move the order itself; the floor above (order-flows) passes them
 * in and exports each entry point below with them in place. Each runs inside the payment's
 * transaction, with the order locked before the payment (decision 0025).
 */
export interface PaymentOrderSteps {
  /**
   * A refund's money is back: the order is refunded when the payment's refunds add up to all it
   * captured (otherwise its history records the amount), and the customer's e-mail is queued.
   */
  refunded(
    tx: DatabaseOrTransaction,
    order: typeof orders.$inferSelect,
    refund: typeof refunds.$inferSelect,
    input: { now: Date; siteUrl: string },
  ): Promise<void>;
}
