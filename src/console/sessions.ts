import { secretHash, newSecret } from '../store/operator-credentials';
import { SESSION_ABSOLUTE_MS, type OperatorRole, type SessionLimits, type TeamAccess } from '../store/store';

/** A signed-in operator as one request sees it: the role is read from the operator record each time. */
export interface Session {
  /** SHA-256 of the cookie's session id: what the database knows the session by. */
  idHash: string;
  operator: string;
  role: OperatorRole;
  /** Signed in through ADMIN_AUTH_HEADER (see currentSession). */
  throughSignOn: boolean;
  /** Sent in every console form and compared on POST (the synchronizer-token pattern). */
  csrfToken: string;
}

export interface SignedIn {
  /** The cookie's value; it never reaches the database, only its hash does. */
  id: string;
  session: Session;
}

export interface Sessions {
  /** `token`: what the operator signed in with (null through single sign-on); the bootstrap admin's session is bound to it. */
  create(operator: { name: string; role: OperatorRole }, token: string | null): Promise<SignedIn>;
  get(id: string | undefined): Promise<Session | null>;
  end(idHash: string): Promise<void>;
  /** Deletes the expired sessions; the count deleted. */
  prune(): Promise<number>;
}

/**
 * Each use moves the idle clock, but a touch is a commit: a use within this long of the last mark
 * leaves it, and the idle limit is counted from the mark plus this much, so a session is never cut
 * sooner than the limit after its last use, and at most this much later. A tenth of the limit, at
 * most a minute: one write a minute per busy session at the default 30 minutes.
 */
function touchInterval(idleMs: number): number {
  return Math.min(60_000, Math.floor(idleMs / 10));
}

/**
 * Sessions in the database (SPEC 6.1), so a restart or another replica keeps them and signing out
 * or removing an operator ends them everywhere. The cookie carries a random id; the table holds
 * its hash, so a read of the table (a backup, a replica) signs nobody in.
 */
export function createSessions(options: {
  store: Pick<TeamAccess, 'createSession' | 'findSession' | 'touchSession' | 'endSession' | 'pruneExpiredSessions'>;
  now: () => number;
  idleMinutes: number;
  /** ADMIN_TOKEN or the generated token: a bootstrap session signed in with another one is over. */
  bootstrapToken: string;
}): Sessions {
  const { store, now } = options;
  const idleMs = options.idleMinutes * 60_000;
  const touchEveryMs = touchInterval(idleMs);
  const limits: SessionLimits = { idleMs: idleMs + touchEveryMs, absoluteMs: SESSION_ABSOLUTE_MS };
  const bootstrapTokenHash = secretHash(options.bootstrapToken);
  return {
    async create(operator, token) {
      const id = newSecret();
      const session = { idHash: secretHash(id), operator: operator.name, role: operator.role, throughSignOn: token === null, csrfToken: newSecret() };
      await store.createSession({ idHash: session.idHash, operator: operator.name, csrfToken: session.csrfToken, tokenHash: token === null ? null : secretHash(token), now: now() });
      return { id, session };
    },
    async get(id) {
      // A real id is 43 characters; anything far longer is not worth hashing or a query.
      if (!id || id.length > 128) return null;
      const idHash = secretHash(id);
      const at = now();
      const found = await store.findSession(idHash, { ...limits, now: at, bootstrapTokenHash });
      if (!found) return null;
      if (at - found.lastSeenAt >= touchEveryMs) await store.touchSession(idHash, at, limits);
      return { idHash, operator: found.operator, role: found.role, throughSignOn: found.throughSignOn, csrfToken: found.csrfToken };
    },
    async end(idHash) {
      await store.endSession(idHash);
    },
    prune: () => store.pruneExpiredSessions(now(), limits),
  };
}
