import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { JSON_BUILDERS, unionPayForm } from '../../src/simulator/notification-builders';
import { eventsFileIn, readEventsFile, spawnReceiver } from '../helpers/spawn-receiver';

interface Sent {
  pgCno: string;
  acked: boolean;
}

const builders = Object.values(JSON_BUILDERS);

/** One gateway POST; resolves with whether it was acked 0000 (network errors count as not acked). */
async function send(url: string, i: number): Promise<Sent> {
  const isForm = i % 8 === 7;
  const form = unionPayForm();
  const json = builders[i % builders.length]!();
  const pgCno = isForm ? form.fields.cno : json.pgCno;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': isForm ? form.contentType : 'application/json', 'X-Forwarded-For': '61.33.205.151' },
      body: isForm ? form.body : JSON.stringify(json),
    });
    const text = await res.text();
    const acked = res.status === 200 && (isForm ? text === 'res_cd=0000\x1fres_msg=SUCCESS' : JSON.parse(text).resCd === '0000');
    return { pgCno, acked };
  } catch {
    return { pgCno, acked: false };
  }
}

describe('durability', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'durability-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('every notification acked before a kill -9 is stored and forwarded after restart', async () => {
    const first = await spawnReceiver(dir);
    const sent: Sent[] = [];
    let killed = false;
    let next = 0;
    // 16 concurrent senders; SIGKILL lands mid-burst once 150 acks are in.
    const worker = async () => {
      while (next < 600) {
        const result = await send(first.url, next++);
        sent.push(result);
        if (!killed && sent.filter((s) => s.acked).length >= 150) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    const acked = sent.filter((s) => s.acked);
    expect(acked.length).toBeGreaterThanOrEqual(150);
    expect(sent.some((s) => !s.acked)).toBe(true);

    const second = await spawnReceiver(dir);
    try {
      const db = new Database(join(dir, 'data', 'receiver.db'), { readonly: true });
      const stored = new Set((db.prepare('SELECT pg_cno FROM inbox').all() as Array<{ pg_cno: string }>).map((r) => r.pg_cno));
      db.close();
      expect(acked.filter((s) => !stored.has(s.pgCno))).toEqual([]);

      const deadline = Date.now() + 15_000;
      let forwarded = new Set<string>();
      while (Date.now() < deadline) {
        forwarded = new Set(readEventsFile(eventsFileIn(dir), { whileWriting: true }).map((e) => e.pgCno));
        if (acked.every((s) => forwarded.has(s.pgCno))) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(acked.filter((s) => !forwarded.has(s.pgCno))).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('SIGTERM finishes in-flight notifications, flushes the relay, and exits 0', async () => {
    const receiver = await spawnReceiver(dir);
    const inFlight = Array.from({ length: 40 }, (_, i) => send(receiver.url, i));
    // Once one is answered the burst is under way (not after a guessed pause, which a busy machine outlasts).
    await Promise.race(inFlight);
    receiver.child.kill('SIGTERM');
    const results = await Promise.all(inFlight);
    expect(await receiver.exited).toEqual({ code: 0, signal: null });
    const acked = results.filter((r) => r.acked);
    expect(acked.length).toBeGreaterThan(0);
    const forwarded = new Set(readEventsFile(eventsFileIn(dir)).map((e) => e.pgCno));
    // Flushed before exit: no restart needed for these to be in the queue.
    expect(acked.filter((s) => !forwarded.has(s.pgCno))).toEqual([]);
  });

  it('a graceful stop loses no log line: every acked notification was logged, and the last line is "stopped"', async () => {
    const receiver = await spawnReceiver(dir);
    const stdoutClosed = once(receiver.child.stdout!, 'close');
    const inFlight = Array.from({ length: 40 }, (_, i) => send(receiver.url, i));
    // Once one is answered the burst is under way (not after a guessed pause, which a busy machine outlasts).
    await Promise.race(inFlight);
    receiver.child.kill('SIGTERM');
    const results = await Promise.all(inFlight);
    expect(await receiver.exited).toEqual({ code: 0, signal: null });
    await stdoutClosed;
    const logged = new Set(receiver.logs().filter((l) => l.message === 'notification accepted').map((l) => l.pgCno));
    const acked = results.filter((r) => r.acked);
    expect(acked.length).toBeGreaterThan(0);
    expect(acked.filter((s) => !logged.has(s.pgCno))).toEqual([]);
    expect(receiver.logs().at(-1)).toMatchObject({ message: 'stopped' });
  });

  it('a bad setting stops the process at start with one line naming the variable', async () => {
    await expect(spawnReceiver(dir, { GATEWAY_ENV: 'staging' })).rejects.toThrow(/exited with 1: payment-noti-receiver: invalid GATEWAY_ENV \(got "staging"\): must be production or development[^\n]*\n$/);
  });
});
