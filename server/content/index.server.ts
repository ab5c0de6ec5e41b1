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
  type District,
  type ServedDistrict,
} from "./districts";
export { fallbackHistorySlides, listHistorySlides, type HistorySlide } from "./history";
export { findLegalText, type LegalText, type LegalTextSlug } from "./legal-texts";
export { listOrganizations, type Organization } from "./organizations";
export { changeSiteSettings, getSiteSettings, readBrandName, readSiteSettingsFor, type SiteSettings } from "./site-settings";
export { countVotes, countVotesForPublicPage, findVoteOf, voteForOrganization, type VoteCounts, type VoteResult } from "./organization-votes";
export { getIssuer, type Issuer } from "./issuer";
export { invalidateStorefront } from "../db/storefront-cache";
export type { ContentSaveResult } from "./content-edit";
export { readSettingsForEditing, updateDoorPaymentSettings, updateIssuer, updateRepeatSettings, updateSiteSettings } from "./settings-admin";
export { isLegalTextSlug, listLegalTextVersions, readLegalTextForEditing, saveLegalText, type LegalTextVersion } from "./legal-texts-admin";
export { createOrganization, findOrganizationForEditing, listAllOrganizations, updateOrganization, type OrganizationRow } from "./organizations-admin";
export {
  createHistoryEntry,
  deleteHistoryEntry,
  findHistoryEntryForEditing,
  listAllHistoryEntries,
  updateHistoryEntry,
  type HistoryEntryRow,
} from "./history-admin";
