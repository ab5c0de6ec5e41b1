// Issue 11, /admin/clientes: search, a customer's whole picture, and the Ley 29733 requests
// (export and anonymisation; docs/decisions/0051-customer-data-requests.md), for accounts and for
// guest buyers without one (docs/decisions/0061-guest-data-requests.md), and for people who never
// bought (docs/decisions/0064-data-requests-of-people-who-never-bought.md). The account actions
// (verification, password reset, deactivation) live in the accounts domain.
export { CUSTOMERS_PAGE_SIZE, searchCustomers, type CustomerRow } from "./search";
export { findCustomerProfile, loadCustomerPicture, type CustomerPicture, type SubjectLists } from "./picture";
export { customerExportFilename, exportCustomerData } from "./export";
export { anonymiseBlockers, anonymiseCustomer, anonymizedEmailFor, blockerMessage } from "./anonymise";
export { anonymiseGuest, anonymizedGuestEmailFor, exportGuestData, findGuest, guestExportFilename, loadGuestPicture } from "./guests";
export {
  anonymisePerson,
  anonymizedPersonEmailFor,
  exportPersonData,
  findPerson,
  loadPersonPicture,
  parsePersonReference,
  personExportFilename,
} from "./people";
export { confirmCustomerPhoneByCall } from "./phone-confirmation";
export { findCallers, loadCallerPicture, parseCallerReference, type CallerMatch, type CallerPicture } from "./callers";
