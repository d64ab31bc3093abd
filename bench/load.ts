import { performance } from 'node:perf_hooks';
import { NOTI_TYPES } from '../src/notifications/event-types';
import { planNotifications } from '../src/simulator/scenario';
import type { WireNotification } from '../src/simulator/wire-notification';
import { openConnections, type BenchConnection } from './http-client';
import { LatencySamples } from './latency-samples';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  /** Raw percentiles of every measured request: no coordinated-omission correction. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** Non-2xx answers plus connection errors. */
  bad: number;
  /** True when the pool of fresh notifications ran out and the load became all redeliveries. */
  poolExhausted: boolean;
}

export interface PacedResult extends LoadResult {
  /** How late requests left against their schedule: the pacing's own honesty check. */
  sendLagP99Ms: number;
}

/** One in five requests repeats an earlier notification, as the gateway's redeliveries do. */
const REDELIVERY_EVERY = 5;
/** Redeliveries pick from the most recent notifications, where the dedup race is sharpest. */
const REDELIVERY_WINDOW = 2000;

/** What a source picks from: a plain array, or the packed pool below. */
export interface Pickable<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/** Bytes of notification bodies per off-heap chunk. */
const CHUNK_BYTES = 32 * 1024 * 1024;

/**
 * Fresh notifications of every event type (event 70's EUC-KR form included), built between
 * runs so generation costs nothing under load. It grows before every run by what the run may
 * use: a fast server that ran out would be measured on redeliveries alone (no outbox row,
 * nothing forwarded), which flatters it.
 *
 * The bodies are packed into large off-heap buffers and each notification is a few numbers,
 * so the client's own heap stays small however many it holds: 4 MB for a million, instead of
 * a few hundred MB of objects that every full collection of the client had to mark (113-127 ms
 * for one forced on 500k of them). `at` builds the small view a request needs.
 */
export class NotificationPool implements Pickable<WireNotification> {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK_BYTES;
  /** Four numbers per notification (chunk, offset, length, index in `kinds`), off the heap too. */
  private where = new Int32Array(4 * 65_536);
  private count = 0;
  private readonly kinds: Array<Omit<WireNotification, 'body'>> = [];

  get length(): number {
    return this.count;
  }

  at(index: number): WireNotification | undefined {
    if (!(index >= 0 && index < this.count)) return undefined;
    const w = this.where;
    const at = index * 4;
    return { ...this.kinds[w[at + 3]!]!, body: this.chunks[w[at]!]!.subarray(w[at + 1]!, w[at + 1]! + w[at + 2]!) };
  }

  growTo(size: number): void {
    if (size <= this.length) return;
    for (const notification of planNotifications(NOTI_TYPES, Math.ceil((size - this.length) / NOTI_TYPES.length))) {
      this.add(notification);
    }
  }

  private add({ body, ...kind }: WireNotification): void {
    if (this.used + body.length > CHUNK_BYTES) {
      this.chunks.push(Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, body.length)));
      this.used = 0;
    }
    body.copy(this.chunks.at(-1)!, this.used);
    let kindIndex = this.kinds.findIndex((k) => k.notiType === kind.notiType && k.contentType === kind.contentType && k.ackForm === kind.ackForm);
    if (kindIndex === -1) kindIndex = this.kinds.push(kind) - 1;
    if (this.count * 4 === this.where.length) {
      const larger = new Int32Array(this.where.length * 2);
      larger.set(this.where);
      this.where = larger;
    }
    this.where.set([this.chunks.length - 1, this.used, body.length, kindIndex], this.count * 4);
    this.count += 1;
    this.used += body.length;
  }
}

/**
 * Hands out notifications: four in five fresh, one in five a redelivery of a recent one. One
 * source per server spans all its rounds, so a round does not start by replaying the previous
 * round's notifications as an unrealistic wall of duplicates.
 */
export function loadSource<T = WireNotification>(pool: Pickable<T>, growTo: (size: number) => void = () => {}): LoadSource<T> {
  let sent = 0;
  let fresh = 0;
  let exhausted = false;
  return {
    next(): T {
      sent += 1;
      if (sent % REDELIVERY_EVERY === 0 && fresh > 0) return pool.at(fresh - 1 - Math.floor(Math.random() * Math.min(fresh, REDELIVERY_WINDOW)))!;
      if (fresh >= pool.length) {
        exhausted = true;
        return pool.at(Math.floor(Math.random() * pool.length))!;
      }
      return pool.at(fresh++)!;
    },
    exhausted: () => exhausted,
    reserve: (requests) => growTo(fresh + requests),
  };
}

export interface LoadSource<T = WireNotification> {
  next(): T;
  /** True once the pool ran out and every pick became a repeat. */
  exhausted(): boolean;
  /** Before a run, never during one: makes sure `requests` more picks can all be fresh. */
  reserve(requests: number): void;
}

/**
 * Closed loop: each connection sends its next request as soon as the previous answer is in,
 * for `warmupSeconds` (not counted) and then `seconds` (measured). Splitting `urls` spreads the
 * connections over several servers (replicas) and sums them.
 */
export async function saturate(urls: string[], source: LoadSource, options: { connections: number; seconds: number; warmupSeconds: number }): Promise<LoadResult> {
  const perUrl = Math.max(1, Math.round(options.connections / urls.length));
  const connections = (await Promise.all(urls.map((url) => openConnections(url, perUrl)))).flat();
  const samples = new LatencySamples();
  let bad = 0;
  let measuring = false;
  const warmupEnd = performance.now() + options.warmupSeconds * 1000;
  const end = warmupEnd + options.seconds * 1000;
  let measuredFrom = warmupEnd;

  const loop = async (connection: BenchConnection) => {
    for (;;) {
      const now = performance.now();
      if (now >= end) return;
      if (!measuring && now >= warmupEnd) {
        measuring = true;
        measuredFrom = now;
      }
      const counted = measuring;
      try {
        const outcome = await connection.send(source.next());
        if (!counted) continue;
        samples.add(outcome.latencyMs);
        if (outcome.status < 200 || outcome.status > 299) bad += 1;
      } catch {
        if (counted) bad += 1;
        return;
      }
    }
  };
  await Promise.all(connections.map(loop));
  const seconds = (performance.now() - measuredFrom) / 1000;
  for (const connection of connections) connection.close();
  return { ...samples.summary(), requestsPerSecond: samples.count / seconds, bad, poolExhausted: source.exhausted() };
}

/**
 * Open loop at a fixed rate: request i leaves at start + i/rate on whichever connection is
 * idle, whether or not earlier answers came back, as a gateway's traffic arrives. A timer
 * checks the schedule every millisecond, so 500/s goes out as one request every 2 ms, never
 * as a burst at the top of each second.
 */
export async function paced(url: string, source: LoadSource, options: { rate: number; seconds: number; connections: number }): Promise<PacedResult> {
  const connections = await openConnections(url, options.connections);
  const idle = [...connections];
  const samples = new LatencySamples();
  const lag = new LatencySamples();
  const total = Math.round(options.rate * options.seconds);
  const start = performance.now();
  let scheduled = 0;
  let bad = 0;
  let inFlight = 0;

  await new Promise<void>((done) => {
    const fire = (connection: BenchConnection, dueAt: number) => {
      lag.add(performance.now() - dueAt);
      inFlight += 1;
      connection.send(source.next()).then(
        (outcome) => {
          samples.add(outcome.latencyMs);
          if (outcome.status < 200 || outcome.status > 299) bad += 1;
          idle.push(connection);
          settle();
        },
        () => {
          bad += 1;
          settle();
        },
      );
    };
    const settle = () => {
      inFlight -= 1;
      tick();
    };
    const tick = () => {
      const now = performance.now();
      while (scheduled < total && start + (scheduled * 1000) / options.rate <= now && idle.length > 0) {
        // First in, first out: every connection stays in use, so none idles into the server's
        // keep-alive timeout; one the server closed anyway is dropped, never written to.
        const connection = idle.shift()!;
        if (!connection.open) continue;
        fire(connection, start + (scheduled * 1000) / options.rate);
        scheduled += 1;
      }
      if (scheduled < total && idle.length === 0 && inFlight === 0) {
        // Every connection is gone: the rest cannot be sent, and count as failed.
        bad += total - scheduled;
        scheduled = total;
      }
      if (scheduled >= total && inFlight === 0) done();
    };
    const timer = setInterval(() => {
      tick();
      if (scheduled >= total) clearInterval(timer);
    }, 1);
  });
  const seconds = (performance.now() - start) / 1000;
  for (const connection of connections) connection.close();
  return {
    ...samples.summary(),
    requestsPerSecond: samples.count / seconds,
    bad,
    poolExhausted: source.exhausted(),
    sendLagP99Ms: lag.percentile(99),
  };
}
