import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { createApiApp } from '../../src/api/api-app';
import { ConfigError, loadConfig } from '../../src/config/env';
import { spawnReceiver } from '../helpers/spawn-receiver';
import { PATHS, startFakeGateway } from './fake-gateway';
import { API_TOKEN, HMAC_KEY, startApiHarness, vanApproval, walletCancel } from './api-harness';

/** Every row of every table, as text: what an operator, a backup or a console could read. */
function dumpDatabase(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
    return tables.map(({ name }) => JSON.stringify(db.prepare(`SELECT * FROM ${name}`).all(), (_k, v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v))).join('\n');
  } finally {
    db.close();
  }
}

describe('secrets (the HMAC key and the API token) never leave the process', () => {
  it('are absent from logs, records, answers, queued events and metrics after every kind of outcome', async () => {
    const gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    const api = await startApiHarness(gateway, { GATEWAY_MAX_ATTEMPTS: '2' });
    try {
      gateway.script(PATHS.revise, { hang: true });
      gateway.script(PATHS.approve, { reset: true });
      gateway.script(PATHS.netCancel, { answer: { resCd: 'V900', resMsg: 'no' } });
      const answers = [
        await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 's-1' })),
        await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 's-2' })),
        await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 's-2', memo: 'other' })),
        await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 's-3' })),
        await api.post('/v1/wallet-b/cancellations', walletCancel({ memo: HMAC_KEY.slice(0, 4) + 'x'.repeat(200) })),
        await request(createApiApp({ commands: api.deps, apiToken: API_TOKEN })).post('/v1/van/approvals').set('Authorization', `Bearer ${API_TOKEN}x`),
        await api.get('/v1/commands'),
      ];
      expect(answers.map((a) => a.status)).toEqual([202, 200, 409, 202, 400, 401, 200]);
      await new Promise((resolve) => setTimeout(resolve, 400));

      const everything = [
        ...answers.map((a) => JSON.stringify(a.body) + JSON.stringify(a.headers)),
        ...api.logs(),
        JSON.stringify(api.forwarded()),
        await api.metrics.registry.metrics(),
        dumpDatabase(join(api.dir, 'receiver.db')),
      ].join('\n');
      expect(api.forwarded().length).toBeGreaterThan(0);
      expect(everything).toContain('s-3');
      expect(everything).not.toContain(HMAC_KEY);
      expect(everything).not.toContain(API_TOKEN);
    } finally {
      await api.close();
      await gateway.close();
    }
  });

  it('a bad secret setting names the variable but never echoes the value', () => {
    const attempt = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(attempt({ GATEWAY_SECRET_KEY_FILE: '/nonexistent/key' })).toMatch(/^invalid GATEWAY_SECRET_KEY_FILE: cannot read \/nonexistent\/key/);
    const dir = mkdtempSync(join(tmpdir(), 'noti-empty-secret-'));
    try {
      writeFileSync(join(dir, 'token'), '\n');
      expect(attempt({ API_TOKEN_FILE: join(dir, 'token') })).toMatch(/^invalid API_TOKEN_FILE: .*token is empty/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are read from *_FILE by the built service and appear nowhere in its output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-secrets-'));
    const gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    writeFileSync(join(dir, 'token'), `${API_TOKEN}\n`);
    writeFileSync(join(dir, 'key'), `${HMAC_KEY}\n`);
    const receiver = await spawnReceiver(dir, {
      API_TOKEN_FILE: join(dir, 'token'),
      GATEWAY_SECRET_KEY_FILE: join(dir, 'key'),
      GATEWAY_WALLET_B_URL: gateway.url,
      LOG_LEVEL: 'debug',
    });
    try {
      const res = await fetch(`http://127.0.0.1:${receiver.apiPort}/v1/wallet-b/cancellations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${API_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(walletCancel({ shopTransactionId: 'file-1' })),
      });
      expect(await res.json()).toMatchObject({ state: 'succeeded' });
      const metrics = await (await fetch(`http://127.0.0.1:${receiver.adminPort}/metrics`)).text();
      expect(metrics).toContain('noti_receiver_commands_total{kind="wallet-b.cancel",state="succeeded"} 1');
      receiver.child.kill('SIGTERM');
      await receiver.exited;
      const output = receiver.stdout() + receiver.stderr() + metrics + dumpDatabase(join(dir, 'data', 'receiver.db'));
      expect(output).toContain('file-1');
      expect(output).not.toContain(HMAC_KEY);
      expect(output).not.toContain(API_TOKEN);
    } finally {
      if (receiver.child.exitCode === null) receiver.child.kill('SIGKILL');
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the internal API listener', () => {
  it('refuses to share the notification port', () => {
    expect(() => loadConfig({ PORT: '8080', API_PORT: '8080' })).toThrow(/^invalid API_PORT \(got "8080"\): must differ from PORT/);
  });

  it('stays off, saying so in one log line, when no token is set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-api-off-'));
    const receiver = await spawnReceiver(dir, {});
    try {
      expect(receiver.apiPort).toBeNull();
      expect(receiver.stdout()).toContain('internal API off: set API_TOKEN or API_TOKEN_FILE to enable it');
    } finally {
      receiver.child.kill('SIGTERM');
      await receiver.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
