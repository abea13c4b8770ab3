/**
 * The relay's AUTH (./relay-server.ts): PLAIN or LOGIN with an SMTP credential, failed logins counted per
 * client address and per credential tried (./auth-throttle.ts: 421 4.7.0 and the connection closed), and
 * each credential's last use recorded.
 */
import type { SMTPServerAuthentication, SMTPServerSession } from 'smtp-server';
import type { SmtpCredentialRepository } from '../../adapters/store/smtp-credentials';
import { AppError } from '../../domain/errors';
import { BoundedMap } from '../../lib/bounded-map';
import { logError, logInfo, logWarn } from '../../lib/log';
import type { Clock } from '../../ports/clock';
import { authenticateSmtp, smtpPasswordHash, type AuthenticateDeps } from '../../usecases/access/authenticate';
import type { Principal } from '../../usecases/access/principal';
import type { AuthBlock, AuthThrottle } from './auth-throttle';
import { SmtpRefusal, smtpErrorOf } from './replies';
import type { RelayUser } from './relay-session';

export type RelayAuthDeps = AuthenticateDeps & {
  clock: Clock;
  /** Records each credential's last use (at most once a minute per credential and process). */
  smtpCredentials: Pick<SmtpCredentialRepository, 'touchLastUsed'>;
};

/** How often a credential's last use is written (at most). */
const TOUCH_EVERY_MS = 60_000;

/** Records a credential's use, at most once a minute per credential in this process; a failure is logged. */
export function credentialUses(deps: RelayAuthDeps): (principal: Principal) => void {
  const touched = new BoundedMap<string, number>(10_000);
  return (principal) => {
    const now = deps.clock.now();
    const last = touched.get(principal.credential.id);
    if (last !== undefined && now.getTime() - last < TOUCH_EVERY_MS) return;
    touched.set(principal.credential.id, now.getTime());
    deps.smtpCredentials
      .touchLastUsed(principal.account.id, principal.credential.id, now.toISOString())
      .catch((error) => logError('smtp: recording the credential use failed', error, { credential_id: principal.credential.id }));
  };
}

/** smtp-server's onAuth: the session's user, or the reply refusing it (454 when the login could not be checked). */
export function authenticateSession(
  deps: RelayAuthDeps,
  throttle: AuthThrottle,
  touch: (principal: Principal) => void,
  auth: SMTPServerAuthentication,
  session: SMTPServerSession,
  callback: (err: Error | null | undefined, response?: { user?: RelayUser }) => void,
): void {
  const address = session.remoteAddress;
  const username = auth.username ?? '';
  const password = auth.password ?? '';
  const attempt = throttle.attempt(address, username, password);
  const login = async (): Promise<{ user: RelayUser } | Error> => {
    const blocked = await throttle.blockedFor(attempt);
    if (blocked) return throttled(blocked);
    let principal: Principal;
    try {
      principal = await authenticateSmtp(deps, username, password);
    } catch (error) {
      if (!(error instanceof AppError && error.status === 401)) throw error;
      // Told only when counted below the limits (./auth-throttle.ts).
      const failure = await throttle.afterFailure(attempt);
      logWarn('smtp: authentication failed', {
        session: session.id,
        remote: address,
        counted: failure.counted,
        throttled: failure.block?.by ?? null,
      });
      if (!failure.counted) return throttled(failure.block);
      return smtpErrorOf(failure.block ? new SmtpRefusal(421, '4.7.0', `${error.message} ${tooMany(failure.block)}`) : error);
    }
    const held = await throttle.afterSuccess(attempt);
    if (held) return throttled(held);
    touch(principal);
    logInfo('smtp: authenticated', {
      session: session.id,
      remote: address,
      account_id: principal.account.id,
      credential_id: principal.credential.id,
    });
    return { user: { principal, secretHash: smtpPasswordHash(password) } };
  };
  login().then(
    (outcome) => (outcome instanceof Error ? callback(outcome) : callback(null, outcome)),
    (error: unknown) => {
      logError('smtp: authentication could not be checked', error, { session: session.id, remote: address });
      callback(smtpErrorOf(new SmtpRefusal(454, '4.7.0', 'Temporary authentication failure; try again later.')));
    },
  );
}

function tooMany(block: AuthBlock): string {
  return `Too many failed logins ${block.by === 'address' ? 'from this address' : 'with this password'}; try again in ${block.waitSeconds} s.`;
}

/** 421 4.7.0: a limit holds the attempt (its result is not told). */
function throttled(block: AuthBlock): Error {
  return smtpErrorOf(new SmtpRefusal(421, '4.7.0', tooMany(block)));
}
