export { availableGarantiaCredit, lockGarantiaCredit } from "./credit";
export { garantiaCustomerForCheckout, type GarantiaBasis } from "./identity";
export { garantiaUnitsOnTheirWay, recordGarantiaAtDelivery, releaseReturnedGarantias, type GarantiaCustomer, type ReturnCause } from "./ledger";
export { setGarantiaPreference } from "./preferences";
export { processGarantiaReturns } from "./returns";
export { garantiaSummary, garantiaSummaryForUser, garantiasHeld, type GarantiaReturnRow, type GarantiaReturnState, type GarantiaSummary } from "./summary";
export { settleGarantiaByHand, SETTLE_NOTE_MAX, type GarantiaSettleResult } from "./settle-by-hand";
