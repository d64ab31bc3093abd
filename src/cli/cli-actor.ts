import { userInfo } from 'node:os';
import type { CliIo } from './cli-context';

/**
 * The operating-system user running the CLI, as the account database names it. `USER` is
 * absent where no login shell set it (`docker exec`, cron, `env -i`): the uid still has a name.
 */
function accountName(): string | null {
  try {
    return userInfo().username || null;
  } catch {
    // A uid without an entry in the account database (an arbitrary uid in a container).
    return typeof process.getuid === 'function' ? `uid ${process.getuid()}` : null;
  }
}

/** Who the audit log names for a CLI call: the operating-system user (the CLI has no sign-in), `kim (cli)`. */
export function cliActor(io: CliIo, account: () => string | null = accountName): string {
  const user = io.env.USER || io.env.LOGNAME || account();
  return user ? `${user} (cli)` : 'cli';
}
