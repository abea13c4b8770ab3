/** The dashboard's people (docs/dashboard.md): users and their passwords, sessions, OpenID Connect sign-ins under way, invitations. */
import { DashboardUserRepository } from '../adapters/store/dashboard-users';
import { InvitationRepository } from '../adapters/store/invitations';
import { OidcFlowRepository } from '../adapters/store/oidc-flows';
import { SessionRepository } from '../adapters/store/sessions';
import { scryptPasswords } from '../domain/dashboard/password-hash';
import type { Platform } from './platform';

export function buildTeam({ table, config }: Pick<Platform, 'table' | 'config'>) {
  const dashboardUsers = new DashboardUserRepository(table);
  return {
    dashboardUsers,
    /** Dashboard passwords: scrypt with today's parameters (shared/domain/dashboard/password-hash.ts; PASSWORD_HASH_COST in test stacks). */
    passwords: scryptPasswords(config.passwordHashParams),
    sessions: new SessionRepository(table),
    oidcFlows: new OidcFlowRepository(table),
    /** Accepting an invitation counts owners with the users'. */
    invitations: new InvitationRepository(table, dashboardUsers),
  };
}

export type TeamServices = ReturnType<typeof buildTeam>;
