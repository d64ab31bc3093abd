import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocks } from './doc-blocks';
import { freePort, freshCheckout, runBash } from './fresh-checkout';

/** Sets `name=value` in a .env text, as a reader does who follows "edit what you need". */
function edited(dotEnv: string, settings: Record<string, string>): string {
  return Object.entries(settings).reduce((text, [name, value]) => {
    const line = new RegExp(`^#?\\s*${name}=.*$`, 'm');
    if (!line.test(text)) throw new Error(`.env.example has no ${name}= line`);
    return text.replace(line, `${name}=${value}`);
  }, dotEnv);
}

describe("the README's first session", () => {
  const [setup, endToEnd] = codeBlocks('README.md').filter((block) => block.run);

  it('is two runnable blocks: copy .env, then end to end', () => {
    expect(setup?.text).toContain('cp .env.example .env');
    expect(endToEnd?.text).toContain('simulate');
  });

  it('runs as written after .env is edited to other ports, another notification path and another database, with nothing in the environment', async () => {
    const sandbox = freshCheckout();
    try {
      const [port, adminPort] = [await freePort(), await freePort()];
      // No PORT or ADMIN_PORT in the environment: only .env says where the receiver listens.
      const first = await runBash(setup!.text, sandbox, {});
      expect({ exit: first.code, output: first.output }).toEqual({ exit: 0, output: expect.any(String) });
      const dotEnv = join(sandbox, '.env');
      writeFileSync(
        dotEnv,
        edited(readFileSync(dotEnv, 'utf8'), {
          PORT: String(port),
          ADMIN_PORT: String(adminPort),
          NOTIFY_PATH: '/notifications/k3y',
          DATABASE_URL: 'sqlite:./data/edited.db',
        }),
      );
      const second = await runBash(endToEnd!.text, sandbox, {});
      expect({ exit: second.code, output: second.output }).toEqual({ exit: 0, output: expect.any(String) });
      // The simulator reached the receiver (3 orders of each of the 8 stories, each acked) and the CLI read its database.
      expect(second.output).toMatch(/sent (\d+) +acked \1 +retried \d+ +failed 0 +unexpected 0/);
      expect(second.output).toMatch(/^receiver +ready \(http:\/\/127\.0\.0\.1:(\d+)\/readyz\)$/m);
      expect(second.output).toContain(`http://127.0.0.1:${adminPort}/readyz`);
      expect(second.output).toMatch(/^read from +sqlite:\S+\/data\/edited\.db \(store [0-9a-f]{8}\), the receiver's store$/m);
      expect(second.output).not.toContain("NOT THE RECEIVER'S STORE");
      const log = readFileSync(join(sandbox, 'receiver.log'), 'utf8');
      expect(log).toContain(`"port":${port}`);
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  }, 300_000);
});
