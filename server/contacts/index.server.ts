/**
 * Who owns a contact (issue 39, decision 0088): a phone number typed anywhere proves nothing; a
 * proven one links a person to their consent, export, erasure and messages. Every domain asks here.
 */
export {
  accountOwningPhone,
  accountsOwningPhones,
  erasePhoneProofsOf,
  isPhoneProvenFor,
  phoneProvenForSql,
  provenPhonesOf,
  recordPhoneProof,
} from "./phone-proofs";
