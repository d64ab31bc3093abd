import { loadavg } from 'node:os';
import type { Store } from '../src/store/store';
import { appendCost, type AppendCost } from './ledger-append-cost';
import { openBenchStore, type BenchStore, type Build, type StoreKind } from './ledger-bench-store';
import { longOrder, type LongOrder } from './ledger-long-order';
import { mixCost, type MixCost } from './ledger-mix-cost';
import { appendTable, longTable, mixTable } from './ledger-cost-table';

export interface LedgerCostConfig {
  stores: StoreKind[];
  parts: Array<'append' | 'long' | 'mix'>;
  /** Facts on the order before one more is added, and how many more are added, each measured. */
  facts: number[];
  repeats: number;
  longCancels: number;
  longRate: number;
  block: number;
  mixWarmup: number;
  mix: number;
  mixRate: number;
  /** Each measurement on every build in turn, the order reversed every other round; the median is shown. */
  rounds: number;
  postgresUrl: string | undefined;
}

const list = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);

/** LEDGER_COST_* over `defaults`: every size can be made small for a short run. */
export function ledgerCostConfig(env: NodeJS.ProcessEnv, defaults: Partial<LedgerCostConfig> = {}): LedgerCostConfig {
  const number = (name: string, fallback: number) => (env[name] === undefined ? fallback : Number(env[name]));
  const postgresUrl = env.BENCH_POSTGRES_URL ?? env.TEST_POSTGRES_URL;
  return {
    stores: (env.LEDGER_COST_STORES ? list(env.LEDGER_COST_STORES) : defaults.stores ?? ['sqlite', 'postgres']).filter((kind) => kind === 'sqlite' || postgresUrl) as StoreKind[],
    parts: (env.LEDGER_COST_PARTS ? list(env.LEDGER_COST_PARTS) : defaults.parts ?? ['append', 'long', 'mix']) as LedgerCostConfig['parts'],
    facts: env.LEDGER_COST_K ? list(env.LEDGER_COST_K).map(Number) : defaults.facts ?? [1, 1000, 5000],
    repeats: number('LEDGER_COST_R', defaults.repeats ?? 20),
    longCancels: number('LEDGER_COST_LONG', defaults.longCancels ?? 10_000),
    longRate: number('LEDGER_COST_LONG_RATE', defaults.longRate ?? 500),
    block: number('LEDGER_COST_BLOCK', defaults.block ?? 1000),
    mixWarmup: number('LEDGER_COST_MIX_WARMUP', defaults.mixWarmup ?? 10_000),
    mix: number('LEDGER_COST_MIX', defaults.mix ?? 50_000),
    mixRate: number('LEDGER_COST_MIX_RATE', defaults.mixRate ?? 1000),
    rounds: number('LEDGER_COST_ROUNDS', defaults.rounds ?? 3),
    postgresUrl,
  };
}

/** What one measurement stores before its store opens (see openBenchStore), and the measurement. */
interface Plan<T> {
  seed?: (store: Store) => Promise<void>;
  measure(bench: BenchStore): Promise<T>;
}

const measureOnly = <T>(measure: (bench: BenchStore) => Promise<T>): Plan<T> => ({ measure });

export interface Measured<T> {
  kind: StoreKind;
  build: string;
  runs: T[];
}

/** Runs the configured parts on every store and build, alternated; the tables as text. */
export async function runLedgerCost(builds: Build[], config: LedgerCostConfig, log: (line: string) => void): Promise<string> {
  // The SQLite checkpointer thread is unref'ed: while a store closes, nothing else may keep the process alive.
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    return await measureAll(builds, config, log);
  } finally {
    clearInterval(keepAlive);
  }
}

async function measureAll(builds: Build[], config: LedgerCostConfig, log: (line: string) => void): Promise<string> {
  const appends: Array<Measured<AppendCost>> = [];
  const longs: Array<Measured<LongOrder>> = [];
  const mixes: Array<Measured<MixCost>> = [];
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  log(`ledger cost: ${config.stores.join(', ')}; ${builds.map((b) => b.name).join(' / ')}; ${config.rounds} rounds; load average ${load()}`);
  const alternated = async <T>(kind: StoreKind, what: string, into: Array<Measured<T>>, plan: () => Plan<T>) => {
    const rows = builds.map((build) => ({ kind, build: build.name, runs: [] as T[] }));
    for (let round = 0; round < config.rounds; round += 1) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const build of order) {
        const { seed, measure } = plan();
        const bench = await openBenchStore(build, kind, config.postgresUrl, seed);
        try {
          const result = await measure(bench);
          log(`  ${kind} ${what}, round ${round + 1}, ${build.name}: ${JSON.stringify(result)}`);
          rows.find((row) => row.build === build.name)!.runs.push(result);
        } finally {
          await bench.close();
        }
      }
    }
    into.push(...rows);
  };
  for (const kind of config.stores) {
    if (config.parts.includes('append')) {
      for (const facts of config.facts) await alternated(kind, `one more input at K=${facts}`, appends, () => appendCost(facts, config.repeats));
    }
    if (config.parts.includes('long')) {
      await alternated(kind, `${config.longCancels} cancels at ${config.longRate}/s`, longs, () => measureOnly((bench) => longOrder(bench, config.longCancels, config.longRate, config.block)));
    }
    if (config.parts.includes('mix')) {
      await alternated(kind, `mix ${config.mixWarmup} + ${config.mix} at ${config.mixRate}/s`, mixes, () => measureOnly((bench) => mixCost(bench, config.mixWarmup, config.mix, config.mixRate)));
    }
  }
  log(`ledger cost done; load average ${load()}`);
  return [
    appends.length ? appendTable(appends) : '',
    longs.length ? longTable(longs, config.block) : '',
    mixes.length ? mixTable(mixes) : '',
  ].filter(Boolean).join('\n\n');
}
