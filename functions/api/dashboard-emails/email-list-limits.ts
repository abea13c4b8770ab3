/**
 * The bounded work of the emails list (./email-list-page.ts): recipient, subject, status and tag are not keys
 * of the account's index, so a search reads at most SEARCH_READS pages of SEARCH_PAGE emails from where it
 * stands (500 emails); the charts (./email-activity.ts) count the CHART_SAMPLE most recent emails the same
 * way (5 queries), at most CHART_DAYS days back.
 */
export const SEARCH_PAGE = 100;
export const SEARCH_READS = 5;
export const CHART_SAMPLE = 500;
export const CHART_DAYS = 14;
