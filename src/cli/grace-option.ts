import { Option } from 'commander';
import type { Config } from '../config/env';
import type { CliIo } from './cli-context';
import { CliFailure, EXIT } from '../exit-codes';

/** The ledger's grace period a command computes with, and where it came from. */
export interface Grace {
  seconds: number;
  from: '--grace-seconds' | 'environment' | '.env' | 'default';
}

/** LEDGER_GRACE_SECONDS's own bounds (config/ledger-env.ts). */
const MAX_GRACE_SECONDS = 30 * 24 * 3600;

/**
 * A record computed with another grace period than the receiver's differs from the receiver's
 * (what waits for it opens at another time), so a command that recomputes records takes the
 * receiver's explicitly and says which it used.
 */
export function graceOption(): Option {
  return new Option(
    '--grace-seconds <s>',
    "the ledger's grace period to compute with: give the serving receiver's LEDGER_GRACE_SECONDS (default: LEDGER_GRACE_SECONDS from the environment or .env, else 2100)",
  ).argParser((text) => {
    if (!/^\d+$/.test(text) || Number(text) > MAX_GRACE_SECONDS) throw new CliFailure(`--grace-seconds must be a whole number from 0 to ${MAX_GRACE_SECONDS}, got "${text}"`, EXIT.usage);
    return Number(text);
  });
}

export function graceOf(option: number | undefined, config: Config, io: CliIo): Grace {
  if (option !== undefined) return { seconds: option, from: '--grace-seconds' };
  const from = io.env.LEDGER_GRACE_SECONDS === undefined ? 'default' : io.fromDotEnv?.has('LEDGER_GRACE_SECONDS') ? '.env' : 'environment';
  return { seconds: config.LEDGER_GRACE_SECONDS, from };
}

/** The config with the grace period the command computes with. */
export function withGrace(config: Config, grace: Grace): Config {
  return { ...config, LEDGER_GRACE_SECONDS: grace.seconds };
}

export function describeGrace(grace: Grace): string {
  const where = {
    '--grace-seconds': '--grace-seconds',
    environment: 'LEDGER_GRACE_SECONDS from the environment',
    '.env': 'LEDGER_GRACE_SECONDS from .env',
    default: 'the default: LEDGER_GRACE_SECONDS is not set',
  }[grace.from];
  const hint = grace.from === '--grace-seconds' ? '' : "; pass the serving receiver's with --grace-seconds if it differs";
  return `grace period ${grace.seconds} s (${where})${hint}`;
}
