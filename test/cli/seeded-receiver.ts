import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import { runCli } from '../../src/cli/program';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';

/** supertest connects from 127.0.0.1; the CLI's reprocess judges the stored source by the same list. */
export const receiverEnv = (env: Record<string, string>) => ({ EXTRA_ALLOWED_IPS: '127.0.0.1', ...env });

/** The real receiver app on a SQLite file, reached through supertest (no port), to seed what the CLI reads. */
export function receiverOn(databaseFile: string, env: Record<string, string> = {}) {
  return receiverWith(openSqliteStore(databaseFile), env);
}

/** The same over any store, e.g. PostgreSQL. */
export function receiverWith(store: Store, env: Record<string, string> = {}) {
  const config = loadConfig(receiverEnv(env));
  const app = createApp({ config, store, logger: createLogger({ level: 'error', silent: true }), metrics: createMetrics() });
  return {
    store,
    postJson: (body: Record<string, string>) =>
      request(app).post(config.NOTIFY_PATH).set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(body)),
    postForm: (body: Buffer, contentType: string) =>
      request(app)
        .post(config.NOTIFY_PATH)
        .set('Content-Type', contentType)
        // superagent would re-serialize a Buffer as a form object; the EUC-KR bytes must go out as built.
        .serialize((raw: unknown) => raw as string)
        .send(body),
    close: () => store.close(),
  };
}

/** A receiver on a fresh database file, plus the CLI pointed at that file. */
export function seededReceiver(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'noti-cli-'));
  const databaseFile = join(dir, 'receiver.db');
  const databaseUrl = `sqlite:${databaseFile}`;
  const receiver = receiverOn(databaseFile, env);
  return {
    ...receiver,
    databaseFile,
    databaseUrl,
    /** Runs the CLI in-process against this database, with extra environment on top. */
    cli: (args: string[], extraEnv: Record<string, string> = {}) => runCliCaptured(args, { ...receiverEnv(env), DATABASE_URL: databaseUrl, ...extraEnv }),
    async cleanup() {
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function runCliCaptured(args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr, json: <T = unknown>() => JSON.parse(stdout) as T };
}
