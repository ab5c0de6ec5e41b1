// Issue 11, /admin/clientes: search, a customer's whole picture, and the Ley 29733 requests
// (export and anonymisation; docs/decisions/0051-customer-data-requests.md), for accounts and for
// guest buyers without one (docs/decisions/0061-guest-data-requests.md), and for people who never
// bought (docs/decisions/0064-data-requests-of-people-who-never-bought.md). The account actions
// (verification, password reset, deactivation) live in the accounts domain.
export { CUSTOMERS_PAGE_SIZE, searchCustomers, type CustomerKind, type CustomerRow } from "./search";
export { findCustomerProfile, loadCustomerPicture, type CustomerPicture, type CustomerProfile, type SubjectLists } from "./picture";
export { customerExportFilename, exportCustomerData, type CustomerDataExport } from "./export";
export { anonymiseBlockers, anonymiseCustomer, anonymizedEmailFor, blockerMessage, type AnonymiseBlockers, type AnonymiseResult } from "./anonymise";
export {
  anonymiseGuest,
  anonymizedGuestEmailFor,
  exportGuestData,
  findGuest,
  guestExportFilename,
  loadGuestPicture,
  type GuestAnonymiseResult,
  type GuestPicture,
  type GuestProfile,
} from "./guests";
export {
  anonymisePerson,
  anonymizedPersonEmailFor,
  exportPersonData,
  findPerson,
  loadPersonPicture,
  parsePersonReference,
  personExportFilename,
  type PersonAnonymiseResult,
  type PersonPicture,
  type PersonProfile,
} from "./people";
export { confirmCustomerPhoneByCall, type PhoneConfirmationResult } from "./phone-confirmation";
export {
  findCallers,
  loadCallerPicture,
  parseCallerReference,
  type CallerAddress,
  type CallerMatch,
  type CallerPicture,
  type CallerReference,
} from "./callers";
