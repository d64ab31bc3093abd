import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', 'dist', 'simulator', 'simulate-cli.js');
const simulate = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000 });

describe('the simulate command line', () => {
  it('documents its exit codes in its help, and exits 0 for --help', () => {
    const run = simulate('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Exit codes:\s+0 .*acked[\s\S]*\n\s+1 .*never acked[\s\S]*\n\s+2 .*usage/);
  });

  it('says in its help that its stories are coherent, how they are marked, and which discrepancy each fault opens', () => {
    const run = simulate('--help');
    expect(run.stdout).toMatch(/opens no discrepancy unless --faults/);
    expect(run.stdout).toMatch(/simulator=noti-receiver/);
    expect(run.stdout).toMatch(/\n\s+double-payment\s+duplicate_payment\n/);
    expect(run.stdout).toMatch(/\n\s+amount-mismatch\s+amount_mismatch; needs --api-url\n/);
  });

  it.each([
    [['--url', 'localhost:8080/notifications']],
    [['--url', 'ftp://127.0.0.1/notifications']],
    [[]],
    [['--url', 'http://127.0.0.1:1/notifications', '--count', '0']],
    [['--url', 'http://127.0.0.1:1/notifications', '--event', '99']],
    [['--url', 'http://127.0.0.1:1/notifications', '--no-such-option']],
    [['--url', 'http://127.0.0.1:1/notifications', '--faults', 'over-cancel,no-such-fault']],
    [['--url', 'http://127.0.0.1:1/notifications', '--faults', 'amount-mismatch']],
    [['--url', 'http://127.0.0.1:1/notifications', '--faults', 'amount-mismatch', '--api-url', 'localhost:8081']],
  ])('treats %j as a usage error (exit 2), as its help says', (args) => {
    const run = simulate(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/error: /);
  });

  it('exits 1 when nothing acks, naming the cause once', () => {
    const run = simulate('--url', 'http://127.0.0.1:1/notifications', '--event', '10,70', '--count', '3');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/FAILED/);
    expect(run.stdout.match(/never acked/g)).toHaveLength(1);
    expect(run.stdout).toMatch(/is the receiver running/);
  });
});
