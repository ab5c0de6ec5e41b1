export {
  changeDistrict,
  districtsToJoin,
  districtWithWeekdaysRow,
  listServedDistricts,
  readDistrict,
  readDistrictCentre,
  readDistricts,
  readDistrictWeekdays,
  readWeekdaysOfDistricts,
  servedDistrictShareLocked,
  type ServedDistrict,
} from "./districts";
export { fallbackHistorySlides, listHistorySlides } from "./history";
export { findLegalText, type LegalText } from "./legal-texts";
export { listOrganizations, type Organization } from "./organizations";
export { changeSiteSettings, getSiteSettings, readBrandName, readSiteSettingsFor } from "./site-settings";
export { countVotes, countVotesForPublicPage, findVoteOf, voteForOrganization } from "./organization-votes";
export { getIssuer, type Issuer } from "./issuer";
export { invalidateStorefront } from "../db/storefront-cache";
export type { ContentSaveResult } from "./content-edit";
export { readSettingsForEditing, updateDoorPaymentSettings, updateIssuer, updateRepeatSettings, updateSiteSettings } from "./settings-admin";
export { isLegalTextSlug, listLegalTextVersions, readLegalTextForEditing, saveLegalText } from "./legal-texts-admin";
export { createOrganization, findOrganizationForEditing, listAllOrganizations, updateOrganization } from "./organizations-admin";
export { createHistoryEntry, deleteHistoryEntry, findHistoryEntryForEditing, listAllHistoryEntries, updateHistoryEntry } from "./history-admin";
