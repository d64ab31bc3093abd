import { performance } from 'node:perf_hooks';
import { computeOrderRecord } from '../src/ledger/compute-order-record';
import type { LedgerFact } from '../src/ledger/ledger-facts';
import { DEFAULT_LEDGER_SETTINGS } from '../src/config/ledger-settings';
import {
  ORDER, PG, approval, deposit, escrow, expectation, minute, partialCancel, refund, resolution, transferFailed, walletCancellation,
} from '../test/ledger/ledger-fixtures';

/**
 * The ledger's pure fold alone: computeOrderRecord runs on the ack path of every notification,
 * inside the transaction that stores it, so its CPU is paid per notification. Facts are built as
 * the store builds them (a gateway body through validation, normalization and notificationFact).
 * Prints µs per call for each case: the median of LEDGER_RUNS runs of LEDGER_ITERATIONS calls,
 * and the fastest run (on a shared machine the other processes' load moves the median).
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/ledger-fold.js
 */
const RUNS = Number(process.env.LEDGER_RUNS ?? '9');
const ITERATIONS = Number(process.env.LEDGER_ITERATIONS ?? '20000');

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

/** One payment of 1,000,000 and `n` partial cancels of 1,000, each with its gateway remainder. */
function manyCancels(n: number): LedgerFact[] {
  return [
    approval({ pgCno: PG.card, amount: 1_000_000, at: 0 }),
    ...Array.from({ length: n }, (_, i) => partialCancel({
      pgCno: PG.card, cancelPgCno: `26112112999${String(i).padStart(9, '0')}`, cancelAmount: 1000, remainAmount: 1_000_000 - 1000 * (i + 1), at: i + 1,
    })),
  ];
}

function microsPerCall(c: Case): { median: number; best: number } {
  const options = { now: minute(c.now), settings: DEFAULT_LEDGER_SETTINGS };
  const runs: number[] = [];
  let sink = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const start = performance.now();
    for (let i = 0; i < ITERATIONS; i += 1) sink += computeOrderRecord(ORDER, c.facts, options).record?.events.length ?? 0;
    runs.push(((performance.now() - start) * 1000) / ITERATIONS);
  }
  // Kept so the calls cannot be optimized away.
  if (sink < 0) console.log(sink);
  runs.sort((a, b) => a - b);
  return { median: runs[Math.floor(runs.length / 2)]!, best: runs[0]! };
}

for (const c of CASES) {
  const record = computeOrderRecord(ORDER, c.facts, { now: minute(c.now), settings: DEFAULT_LEDGER_SETTINGS }).record;
  const shown = `${record?.status ?? 'no record'}, ${record?.discrepancies.length ?? 0} discrepancies`;
  const { median, best } = microsPerCall(c);
  console.log(`${c.name.padEnd(36)} ${String(c.facts.length).padStart(2)} facts  ${median.toFixed(2).padStart(8)} µs/call (best ${best.toFixed(2)})  (${shown})`);
}
