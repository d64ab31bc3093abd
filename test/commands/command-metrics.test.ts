import { PATHS, startFakeGateway } from './fake-gateway';
import { startApiHarness, vanApproval, walletCancel } from './api-harness';

describe('command metrics', () => {
  it('count attempts by verdict, final states by kind, and show long-pending commands in a gauge', async () => {
    const gateway = await startFakeGateway();
    const api = await startApiHarness(gateway, { COMMAND_PENDING_ALERT_MS: '1', GATEWAY_RETRY_BASE_MS: '60000' });
    try {
      gateway.script(PATHS.revise, { hang: true });
      await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'm-1' })).expect(202);
      await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'm-2' })).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const text = await api.metrics.registry.metrics();
      expect(text).toContain('noti_receiver_command_attempts_total{operation="wallet-b.cancel",verdict="unknown"} 1');
      expect(text).toContain('noti_receiver_command_attempts_total{operation="van.approve",verdict="success"} 1');
      expect(text).toContain('noti_receiver_commands_total{kind="van.approve",state="approved"} 1');
      expect(text).toContain('noti_receiver_commands_long_pending 1');
      expect(text).toContain('noti_receiver_commands_net_cancel_failed 0');
    } finally {
      await api.close();
      await gateway.close();
    }
  });
});
