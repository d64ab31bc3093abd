import type { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config/env';
import { maskCardData } from '../observability/card-numbers';
import { maskSensitive } from '../observability/mask';
import { openStore } from '../store/open-store';
import { StoreUnavailable, type Store } from '../store/store';
import { CliFailure, EXIT } from '../exit-codes';
import { requireReceiverDatabase } from './require-database';
import { terminalJson } from './terminal-text';

/** Where a command reads its environment and writes its output; tests pass their own. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** The variables of `env` that came from `.env` (the rest from the environment itself). */
  fromDotEnv?: ReadonlySet<string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * Lowers the process's priority below a serving receiver's, for the commands that run beside it
   * as background work (the CLI's own process lowers its thread; a test running the CLI in its
   * own process leaves that process as it is).
   */
  stepAside?: () => void;
}

export interface GlobalOptions {
  databaseUrl?: string;
  json?: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** The receiver's own configuration schema, so the CLI and the service can never read a variable differently. */
export function cliConfig(io: CliIo, options: GlobalOptions): Config {
  try {
    return loadConfig({ ...io.env, ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) });
  } catch (error) {
    if (error instanceof ConfigError) throw new CliFailure(error.message, EXIT.usage);
    throw error;
  }
}

/** Opens the store, runs `work`, always closes it; any storage failure becomes exit code 3. */
export async function withStore<T>(config: Config, work: (store: Store) => Promise<T>): Promise<T> {
  await requireReceiverDatabase(config.DATABASE_URL);
  let store: Store;
  try {
    store = await openStore(config.DATABASE_URL);
  } catch (error) {
    throw new CliFailure(`cannot open the store: ${(error as Error).message}`, EXIT.storeUnavailable);
  }
  try {
    return await work(store);
  } catch (error) {
    if (error instanceof StoreUnavailable) throw new CliFailure(error.message, EXIT.storeUnavailable);
    throw error;
  } finally {
    await store.close();
  }
}

/**
 * `--json` prints the data as stored, for scripts, but for card data (never shown whole, PCI DSS);
 * otherwise the human rendering, with personal data masked. Either way the io's writers (see
 * runCli) escape control characters and mask card numbers in whatever text reaches them.
 */
export function print(io: CliIo, options: GlobalOptions, data: unknown, human: () => string): void {
  io.stdout(`${options.json ? terminalJson(JSON.stringify(maskCardData(data), jsonReplacer, 2)) : human()}\n`);
}

export function masked<T>(value: T): T {
  return maskSensitive(value) as T;
}

/** Raw bodies travel as base64 in JSON output, so EUC-KR bytes survive a pipe unchanged. */
function jsonReplacer(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)) {
    return Buffer.from((value as { data: number[] }).data).toString('base64');
  }
  return value;
}

/** Row limits beyond this are a typo, and numbers past 2^53 would reach SQL as garbage (exit 3 instead of 2). */
const MAX_LIMIT = 1_000_000;

/** Parses a positive integer option or argument; commander turns the throw into a usage error. */
export function positiveInt(name: string, max = MAX_LIMIT) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max) {
      throw new CliFailure(`${name} must be a whole number from 1 to ${max}, got "${text}"`, EXIT.usage);
    }
    return Number(text);
  };
}

/** Parses a numeric row id argument (rejections, conflicts); a typo is a usage error, not "not found". */
export function numericId(kind: string) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new CliFailure(`a ${kind} id is a number, got "${text}"`, EXIT.usage);
    return Number(text);
  };
}
