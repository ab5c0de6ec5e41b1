export { availableGarantiaCredit, lockGarantiaCredit } from "./credit";
export { garantiaCustomerForCheckout, type GarantiaBasis } from "./identity";
export { garantiaUnitsOnTheirWay, recordGarantiaAtDelivery, releaseReturnedGarantias, type GarantiaCustomer } from "./ledger";
export { setGarantiaPreference } from "./preferences";
export { processGarantiaReturns } from "./returns";
export { garantiaSummary, garantiaSummaryForUser, garantiasHeld, type GarantiaReturnState, type GarantiaSummary } from "./summary";
export { settleGarantiaByHand, SETTLE_NOTE_MAX } from "./settle-by-hand";
