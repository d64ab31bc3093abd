import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { MAIN_JS, spawnReceiver } from '../helpers/spawn-receiver';
import { DEV_GATEWAY_IP } from '../helpers/test-receiver';
import { webhookReceiver, type WebhookReceiver } from './alert-harness';

describe('alerts in the built service', () => {
  let dir: string;
  let webhook: WebhookReceiver;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-alerts-built-'));
    webhook = await webhookReceiver();
  });
  afterEach(async () => {
    await webhook.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('main.ts starts them from the settings: an unexpected payment reaches the webhook, and /metrics counts it', async () => {
    const receiver = await spawnReceiver(dir, {
      ALERT_WEBHOOK_URL: webhook.url, ALERT_LANGUAGE: 'en', LEDGER_REQUIRE_EXPECTATION: 'true', ADMIN_PUBLIC_URL: 'https://ops.shop.example',
    });
    try {
      const shopOrderNo = `ORD-BUILT-${process.pid}`;
      const answer = await fetch(receiver.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': DEV_GATEWAY_IP },
        body: JSON.stringify(approvalNotification({ mallId: 'T0001234', shopOrderNo, amount: '12000' })),
      });
      expect(answer.status).toBe(200);
      const text = await eventually(() => webhook.texts[0], 15_000, 'the webhook message');
      expect(text).toContain('New discrepancy: Unexpected payment (unexpected_payment)');
      expect(text).toContain(`https://ops.shop.example/console/orders/T0001234/${shopOrderNo}`);
      const metrics = await eventually(async () => {
        const body = await (await fetch(`http://127.0.0.1:${receiver.adminPort}/metrics`)).text();
        // The pending gauge is read from the table after the send is recorded: wait for both.
        const settled = body.includes('noti_receiver_alert_messages_total{channel="webhook",outcome="sent"} 1')
          && body.includes('noti_receiver_alerts_pending{channel="webhook"} 0');
        return settled && body;
      }, 15_000, 'the sent counter and nothing pending');
      expect(metrics).toContain('noti_receiver_alerts_pending{channel="webhook"} 0');
      expect(receiver.logs().some((l) => l.message === 'alerts to people on')).toBe(true);
      expect(JSON.stringify(receiver.logs())).not.toContain('XXXXsecretXXXX');
    } finally {
      receiver.child.kill('SIGTERM');
      expect((await receiver.exited).code).toBe(0);
    }
  });

  test('a bad webhook URL stops the start with one line naming the variable and not the URL', async () => {
    const child = spawn(process.execPath, [MAIN_JS], { cwd: dir, env: { PATH: process.env.PATH ?? '', ALERT_WEBHOOK_URL: 'hooks.slack.com/services/T0/B0/XXXXsecretXXXX' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toBe('payment-noti-receiver: invalid ALERT_WEBHOOK_URL: must be an http(s):// incoming-webhook URL such as https://hooks.slack.com/services/…; fix it in the environment or .env (see .env.example)\n');
  });
});
