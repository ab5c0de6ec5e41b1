export { listServedDistricts, type ServedDistrict } from "./districts";
export { fallbackHistorySlides, listHistorySlides, type HistorySlide } from "./history";
export { findLegalText, sanitizeLegalHtml, type LegalText, type LegalTextSlug } from "./legal-texts";
export { listOrganizations, type Organization } from "./organizations";
export { getSiteSettings, type SiteSettings } from "./site-settings";
export { countVotes, countVotesForPublicPage, findVoteOf, voteForOrganization, type VoteCounts, type VoteResult } from "./organization-votes";
export { fillIssuerPlaceholders, getIssuer, type Issuer } from "./issuer";
