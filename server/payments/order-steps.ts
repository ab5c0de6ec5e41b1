import type { orders, refunds } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import type { SettlementDetails } from "./settle";

/**
 * What a payment's outcome does to its order (decision 0083). Payments writes its own rows and
 * calls these where it used to move the order itself; the floor above (order-flows) passes them
 * in and exports each entry point below with them in place. Each runs inside the payment's
 * transaction, with the order locked before the payment (decision 0025).
 */
export interface PaymentOrderSteps {
  /**
   * The payment succeeded (its row is settled): the order is paid, or re-opened and paid when
   * `reopenNote` says so, its invoice numbered and its confirmation queued.
   */
  settled(tx: DatabaseOrTransaction, orderId: string, details: SettlementDetails): Promise<void>;
  /** The payment was declined: the order fails, with the provider's message in its history. */
  failed(tx: DatabaseOrTransaction, orderId: string, details: { now: Date; actor: string; message: string }): Promise<void>;
  /** A cash/Yape code was issued: the order waits for its payment until the code expires. */
  codeIssued(tx: DatabaseOrTransaction, orderId: string, details: { now: Date; actor: string; expiresAt: Date }): Promise<void>;
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
