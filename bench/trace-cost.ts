import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSource, NotificationPool, paced, saturate, type LoadSource } from './load';
import { startReceiver, type RunningProcess } from './processes';
import { startTraceSink } from './trace-sink';

/**
 * CPU per acked notification, tracing off against tracing on (always_on, OTLP to a sink that
 * drops): the receiver's user+system CPU over all its threads (/proc/<pid>/stat) during a
 * saturating run at 32 connections and the drain of its backlog, divided by the acks. Alternated
 * rounds; CPU per request does not move with the shared machine's load as throughput does.
 * TRACE_COST_DISTS=name=path,...: other builds (their dist/) traced beside this one.
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = env('TRACE_COST_ROUNDS', 4);
const SECONDS = env('TRACE_COST_S', 6);
const CONNECTIONS = env('TRACE_COST_CONNECTIONS', 32);
/** TRACE_COST_RATE=n: an open loop at n/s instead of saturating: every target then commits in batches of the same size, whatever the machine's load. */
const RATE = env('TRACE_COST_RATE', 0);
const BASE_PORT = 18_380;
const TICK_MS = 10; // USER_HZ 100

const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};

async function drain(adminUrl: string): Promise<void> {
  const pending = async () => ((await fetch(`${adminUrl}/readyz`).then((r) => r.json())) as { backlog: { pending: number } | null }).backlog?.pending ?? 0;
  while ((await pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 500));
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'noti-tracecost-'));
  const sink = await startTraceSink(BASE_PORT);
  const pool = new NotificationPool();
  const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'always_on', OTEL_SERVICE_NAME: 'noti-receiver-bench' };
  const extra = (process.env.TRACE_COST_EXTRA_ENV ?? '').split(',').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as [string, string]);
  const specs: Array<{ name: string; env: Record<string, string>; dist?: string }> = [
    { name: 'off', env: {} },
    { name: 'on', env: { ...traced, ...Object.fromEntries(extra) } },
    ...(process.env.TRACE_COST_PROTOBUF === '1' ? [{ name: 'on, http/protobuf', env: { ...traced, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' } }] : []),
    ...(process.env.TRACE_COST_DISTS ?? '').split(',').filter(Boolean).map((spec) => {
      const [name, dist] = spec.split('=') as [string, string];
      return { name, env: traced, dist };
    }),
  ];
  const running: Array<{ name: string; process: RunningProcess; url: string; adminUrl: string; source: LoadSource; cpu: number[]; acks: number[] }> = [];
  try {
    let port = BASE_PORT + 2;
    for (const spec of specs) {
      const dir = join(work, spec.name);
      const adminUrl = `http://127.0.0.1:${port + 1}`;
      const process_ = await startReceiver({
        PORT: String(port), HOST: '127.0.0.1', ADMIN_PORT: String(port + 1), EXTRA_ALLOWED_IPS: '127.0.0.1',
        DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, QUEUE_URL: `file:${join(dir, 'events.ndjson')}`, LOG_LEVEL: 'warn', ...spec.env,
      }, adminUrl, spec.dist, process.env.TRACE_COST_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.TRACE_COST_PROFILE_DIR, spec.name)}`] : []);
      running.push({ name: spec.name, process: process_, url: `http://127.0.0.1:${port}/notifications`, adminUrl, source: loadSource(pool, (n) => pool.growTo(n)), cpu: [], acks: [] });
      port += 2;
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? running : [...running].reverse();
      for (const target of order) {
        target.source.reserve(100_000);
        const pid = target.process.child.pid!;
        const before = cpuMs(pid);
        const result = RATE > 0
          ? await paced(target.url, target.source, { rate: RATE, seconds: SECONDS, connections: CONNECTIONS })
          : await saturate([target.url], target.source, { connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 0 });
        await drain(target.adminUrl);
        const used = cpuMs(pid) - before;
        target.cpu.push(used);
        target.acks.push(result.requests - result.bad);
        process.stderr.write(`round ${round + 1} ${target.name}: ${result.requestsPerSecond.toFixed(0)} req/s, ${(used / (result.requests - result.bad)).toFixed(3)} ms CPU/ack\n`);
      }
    }
    const perAck = (t: (typeof running)[number]) => t.cpu.reduce((a, b) => a + b, 0) / t.acks.reduce((a, b) => a + b, 0);
    const off = perAck(running[0]!);
    for (const target of running) {
      const rounds = target.cpu.map((c, i) => (c / target.acks[i]!).toFixed(3)).join(' ');
      process.stdout.write(`${target.name}: ${perAck(target).toFixed(3)} ms CPU/ack (rounds ${rounds}), off/this ${(off / perAck(target)).toFixed(3)}\n`);
    }
  } finally {
    await Promise.all(running.map((t) => t.process.stop()));
    await sink.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
