import { performance } from 'node:perf_hooks';
import { computeOrderRecord, foldNewFacts, replayToCheckpoint } from '../src/ledger/fold/compute-order-record';
import type { FoldCheckpoint } from '../src/ledger/fold/discrepancy-lifecycle';
import type { LedgerFact } from '../src/ledger/fold/ledger-facts';
import { DEFAULT_LEDGER_SETTINGS } from '../src/config/ledger-settings';
import {
  ORDER, PG, approval, deposit, escrow, expectation, minute, partialCancel, refund, resolution, transferFailed, walletCancellation,
} from '../test/ledger/ledger-fixtures';

/**
 * The ledger's pure fold alone: the projector computes each order a batch touches, so its CPU is
 * paid per input: by replaying the order's facts (a rebuild, or an order without a checkpoint), or
 * by applying the new ones to the order's stored checkpoint. Facts are built as
 * the store builds them (a gateway body through validation, normalization and notificationFact).
 * Prints µs per call for each case: the median of LEDGER_RUNS runs (each of 0.1 to 0.2 s of calls),
 * and the fastest run (on a shared machine the other processes' load moves the median).
 * LEDGER_SIZES (`1,20,61,2000`): the order sizes of the checkpoint cases.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/ledger-fold.js
 */
const RUNS = Number(process.env.LEDGER_RUNS ?? '9');

interface Case {
  name: string;
  facts: LedgerFact[];
  /** Minutes after the fixtures' base: on the ack path, the time the last fact was stored. */
  now: number;
}

function twentyFacts(): LedgerFact[] {
  const facts: LedgerFact[] = [
    expectation({ amount: 30000, received: 0 }),
    approval({ pgCno: PG.card, amount: 30000, at: 1 }),
    approval({ pgCno: PG.second, amount: 30000, at: 2 }),
    escrow({ pgCno: PG.card, statusCode: 'ES01', at: 3 }),
    escrow({ pgCno: PG.card, statusCode: 'ES02', at: 4 }),
    partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 5 }),
    partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel2, cancelAmount: 5000, remainAmount: 15000, at: 6 }),
    refund({ pgCno: PG.second, cancelPgCno: PG.cancel1, amount: 10000, at: 7 }),
    refund({ pgCno: PG.second, amount: 5000, at: 8 }),
    walletCancellation({ shopTransactionId: 'CXL-1', pgCno: PG.second, state: 'pending', received: 9 }),
    walletCancellation({ shopTransactionId: 'CXL-1', pgCno: PG.second, state: 'succeeded', received: 10 }),
    partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel3, cancelAmount: 15000, remainAmount: 1000, at: 11 }),
    transferFailed({ pgCno: PG.second, amount: 15000, at: 12 }),
    refund({ pgCno: PG.second, cancelPgCno: PG.cancel3, amount: 15000, at: 13, received: 40 }),
    deposit({ pgCno: PG.vaccount, amount: 12000, at: 14 }),
    escrow({ pgCno: PG.card, statusCode: 'ES03', at: 15 }),
    escrow({ pgCno: PG.card, statusCode: 'ES07', at: 16 }),
    walletCancellation({ shopTransactionId: 'CXL-2', pgCno: PG.card, state: 'failed', received: 17 }),
    approval({ pgCno: PG.card, amount: 30000, at: 18 }),
  ];
  // An operator closes one of what the facts open, as the API or console would.
  const found = computeOrderRecord(ORDER, facts, { now: minute(60), settings: DEFAULT_LEDGER_SETTINGS }).record?.discrepancies ?? [];
  const first = found[0];
  return first === undefined ? facts : [...facts, resolution(first.id, { received: 50 })];
}

const CASES: Case[] = [
  { name: 'new order, one payment', facts: [approval({ pgCno: PG.card, amount: 30000, at: 0 })], now: 0 },
  { name: 'expectation + payment', facts: [expectation({ amount: 30000, received: 0 }), approval({ pgCno: PG.card, amount: 30000, at: 1 })], now: 1 },
  {
    name: 'payment + partial cancel + cancel',
    facts: [
      approval({ pgCno: PG.card, amount: 30000, at: 0 }),
      partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 5 }),
      partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 20000, remainAmount: 0, at: 9 }),
    ],
    now: 9,
  },
  { name: '20-fact order', facts: twentyFacts(), now: 60 },
  // Issue 29: the projector computes an order from its whole history at each batch that touches it.
  { name: 'payment + 60 partial cancels (61st input)', facts: manyCancels(60), now: 120 },
  { name: 'payment + 400 partial cancels', facts: manyCancels(400), now: 500 },
];

/** One payment of 1,000,000 and `n` partial cancels of 100, each with its gateway remainder, a minute apart. */
function manyCancels(n: number): LedgerFact[] {
  return [approval({ pgCno: PG.card, amount: 1_000_000, at: 0 }), ...Array.from({ length: n }, (_, i) => cancelNo(i))];
}

function cancelNo(i: number): LedgerFact {
  return partialCancel({ pgCno: PG.card, cancelPgCno: `26112112${String(i).padStart(12, '0')}`, cancelAmount: 100, remainAmount: 1_000_000 - 100 * (i + 1), at: i + 1 });
}

/** Runs `call` for at least `budgetMs` per run (a slow replay runs a few times, a fast fold thousands), µs per call. */
function timed(runs: number, budgetMs: number, call: (i: number) => number): { median: number; best: number } {
  const perRun: number[] = [];
  let sink = 0;
  for (let run = 0; run < runs; run += 1) {
    let calls = 0;
    const start = performance.now();
    while (performance.now() - start < budgetMs || calls === 0) sink += call(calls++);
    perRun.push(((performance.now() - start) * 1000) / calls);
  }
  // Kept so the calls cannot be optimized away.
  if (sink < 0) console.log(sink);
  perRun.sort((a, b) => a - b);
  return { median: perRun[Math.floor(perRun.length / 2)]!, best: perRun[0]! };
}

const show = ({ median, best }: { median: number; best: number }): string => `${median.toFixed(2).padStart(10)} µs (best ${best.toFixed(2)})`;

console.log('The replay from the facts (computeOrderRecord; what `ledger rebuild` does, and the projector did at every input):');
for (const c of CASES) {
  const record = computeOrderRecord(ORDER, c.facts, { now: minute(c.now), settings: DEFAULT_LEDGER_SETTINGS }).record;
  const shown = `${record?.status ?? 'no record'}, ${record?.discrepancies.length ?? 0} discrepancies`;
  const options = { now: minute(c.now), settings: DEFAULT_LEDGER_SETTINGS };
  const cost = timed(RUNS, 100, () => computeOrderRecord(ORDER, c.facts, options).record?.events.length ?? 0);
  console.log(`  ${c.name.padEnd(42)} ${String(c.facts.length).padStart(4)} facts ${show(cost)}  (${shown})`);
}

/**
 * Issue 37: one new input stored after the order's last moment, applied to the order's stored
 * checkpoint of N facts (foldNewFacts), against the replay of all N + 1. "in memory": the
 * checkpoint restored and read, as the compute thread keeps it (each call gets its own copy, made
 * before the clock starts); "stored": what the projector pays per order besides SQL, the
 * checkpoint read from its JSON and written back. The order: one payment and partial cancels, a
 * minute apart; the new fact is the next cancel (after the 20-fact order, an escrow status): each
 * steps the figures and conditions (figures-step.ts) instead of reading the whole state. What
 * still grows with N in memory: the record's lists a step changes (events, cancels) are copied,
 * because the record the last input returned holds them.
 */
/**
 * A checkpoint as the projector's thread holds it between batches: folded from the facts, and its
 * state read once by the fold of its latest input, whose record holds the read's lists (the next
 * step copies those it changes). Without the reading, the first input reads the whole state.
 */
function kept(facts: readonly LedgerFact[], options: { now: string; settings: typeof DEFAULT_LEDGER_SETTINGS }): FoldCheckpoint {
  const checkpoint = replayToCheckpoint(ORDER, facts, options).checkpoint;
  foldNewFacts(ORDER, checkpoint, [], options);
  return checkpoint;
}

const SIZES = (process.env.LEDGER_SIZES ?? '1,20,61,2000').split(',').map(Number);
console.log('\nOne new in-order input on an order of N facts:');
const perInput: Array<{ n: number; memory: number }> = [];
for (const n of SIZES) {
  const facts = n === 20 ? twentyFacts() : manyCancels(n - 1);
  const last = Math.max(...facts.map((f) => (Date.parse(f.recordedAt) - Date.parse(minute(0))) / 60_000));
  // The next cancel (its stated remainder right), or, after the 20-fact order, an escrow status.
  const made = n === 20 ? escrow({ pgCno: PG.card, statusCode: 'ES08', at: last + 1 }) : cancelNo(n - 1);
  const next = { ...made, recordedAt: minute(last + 1) } as LedgerFact;
  const options = { now: next.recordedAt, settings: DEFAULT_LEDGER_SETTINGS };
  const replayed = computeOrderRecord(ORDER, [...facts, next], options);
  const check = foldNewFacts(ORDER, replayToCheckpoint(ORDER, facts, options).checkpoint, [next], options);
  if (JSON.stringify(check?.record) !== JSON.stringify(replayed.record)) throw new Error(`N=${n}: the checkpoint's record is not the replay's`);
  const replay = timed(RUNS, 200, () => computeOrderRecord(ORDER, [...facts, next], options).record?.events.length ?? 0);
  // Each call gets its own copy, made before the clock starts, twenty at a time and dropped after
  // their calls: a heap holding hundreds of orders of 2,000 facts, every result kept alive, would
  // time the garbage collector copying them, which no compute thread does (it keeps the latest).
  const memoryRuns: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    let spent = 0;
    let calls = 0;
    while (spent < 100 || calls === 0) {
      const ready = Array.from({ length: 20 }, () => kept(facts, options));
      const start = performance.now();
      for (const checkpoint of ready) foldNewFacts(ORDER, checkpoint, [next], options);
      spent += performance.now() - start;
      calls += ready.length;
    }
    memoryRuns.push((spent * 1000) / calls);
  }
  memoryRuns.sort((a, b) => a - b);
  const memory = { median: memoryRuns[Math.floor(RUNS / 2)]!, best: memoryRuns[0]! };
  perInput.push({ n, memory: memory.median });
  console.log(`  N = ${String(n).padStart(4)}: replay (a miss of the projector's cache) ${show(replay)} | checkpoint in memory ${show(memory)}`);
}
const one = perInput.find((p) => p.n === 1);
if (one) for (const p of perInput) console.log(`  in memory, N = ${p.n} against N = 1: ${(p.memory / one.memory).toFixed(1)}x`);

/**
 * What the compute thread does for an order receiving a stream of cancels: one checkpoint kept in
 * memory, STREAM inputs applied to it one after another, each its own foldNewFacts and record (the
 * order grows from N to N + STREAM facts). Mean µs per input, collections included. The copies
 * above are made just before their calls and each result stays alive, so at N = 2,000 their
 * mean also times the young generation's collector moving those fresh copies; here it does not.
 */
const STREAM = Number(process.env.LEDGER_STREAM ?? 200);
console.log(`\nA stream of ${STREAM} in-order cancels on one kept checkpoint of N facts (mean per input):`);
const perStream: Array<{ n: number; mean: number }> = [];
for (const n of SIZES.filter((size) => size !== 20)) {
  const facts = manyCancels(n - 1);
  const options = { now: minute(n), settings: DEFAULT_LEDGER_SETTINGS };
  const runs: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const checkpoint = kept(facts, options);
    const next = Array.from({ length: STREAM }, (_, i) => cancelNo(n - 1 + i));
    const start = performance.now();
    for (const fact of next) if (foldNewFacts(ORDER, checkpoint, [fact], { now: fact.recordedAt, settings: DEFAULT_LEDGER_SETTINGS }) === null) throw new Error('a cancel in order did not go on from the checkpoint');
    runs.push(((performance.now() - start) * 1000) / STREAM);
  }
  runs.sort((a, b) => a - b);
  const cost = { median: runs[Math.floor(RUNS / 2)]!, best: runs[0]! };
  perStream.push({ n, mean: cost.median });
  console.log(`  N = ${String(n).padStart(4)} to ${n + STREAM}: ${show(cost)}`);
}
const first = perStream.find((p) => p.n === 1);
if (first) for (const p of perStream) console.log(`  stream, N = ${p.n} against N = 1: ${(p.mean / first.mean).toFixed(1)}x`);
