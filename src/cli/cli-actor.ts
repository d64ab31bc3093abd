import type { CliIo } from './cli-context';

/** Who the audit log names for a CLI call: the operating-system user when the environment names one (the CLI has no sign-in). */
export function cliActor(io: CliIo): string {
  const user = io.env.USER ?? io.env.LOGNAME;
  return user ? `${user} (cli)` : 'cli';
}
