/**
 * What the team's doors and the members page use (docs/dashboard.md, "Teams and roles"): the main
 * dashboard function's services and the invitations repository, built beside the users' (the shared
 * services do not hold one: shared/services/core.ts is not this part's).
 */
import type { DashboardUserRepository } from '../../../shared/adapters/store/dashboard-users';
import { invitationsBeside, type InvitationRepository } from '../../../shared/adapters/store/invitations';
import type { DashboardServices } from './services';

export type TeamServices = DashboardServices & { invitations: InvitationRepository };

/** `services` and the invitations repository (the main function's, and dashboard-emails', which emails invitations). */
export function withInvitations<S extends { dashboardUsers: DashboardUserRepository }>(services: S): S & { invitations: InvitationRepository } {
  return { ...services, invitations: invitationsBeside(services.dashboardUsers) };
}
