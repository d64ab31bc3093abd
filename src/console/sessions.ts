import { randomBytes } from 'node:crypto';

export interface Session {
  id: string;
  /** Sent in every console form and compared on POST (the synchronizer-token pattern). */
  csrfToken: string;
  /** Who the audit log names: the name given at sign-in and the address it came from. */
  actor: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface Sessions {
  create(actor: string): Session;
  get(id: string | undefined): Session | null;
  destroy(id: string): void;
}

/**
 * Sessions live in this process's memory: a restart signs everyone out, which is the safe
 * failure for a console that can requeue payments, and no session secret reaches the database.
 */
export function createSessions(options: { now: () => number; idleMs?: number; maxAgeMs?: number }): Sessions {
  const idleMs = options.idleMs ?? 60 * 60 * 1000;
  const maxAgeMs = options.maxAgeMs ?? 12 * 60 * 60 * 1000;
  const sessions = new Map<string, Session>();

  const expired = (session: Session, now: number) => now - session.lastSeenAt > idleMs || now - session.createdAt > maxAgeMs;
  const sweep = (now: number) => {
    for (const [id, session] of sessions) if (expired(session, now)) sessions.delete(id);
  };

  return {
    create(actor) {
      const now = options.now();
      sweep(now);
      const session = { id: randomBytes(32).toString('base64url'), csrfToken: randomBytes(32).toString('base64url'), actor, createdAt: now, lastSeenAt: now };
      sessions.set(session.id, session);
      return session;
    },
    get(id) {
      if (!id) return null;
      const session = sessions.get(id);
      if (!session) return null;
      const now = options.now();
      if (expired(session, now)) {
        sessions.delete(id);
        return null;
      }
      session.lastSeenAt = now;
      return session;
    },
    destroy(id) {
      sessions.delete(id);
    },
  };
}
