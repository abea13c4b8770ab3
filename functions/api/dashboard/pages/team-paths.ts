/**
 * The members page's paths (docs/dashboard.md, "Teams and roles"), in a module of their own: the
 * dashboard-send function (which emails invitations) names them without bundling the members page.
 */
export const MEMBERS_PATH = '/dashboard/members';
/** Where the invite form posts: functions/api/dashboard-send/invitation-pages.ts (a function with the send core). */
export const INVITE_PATH = '/dashboard/invitations';
