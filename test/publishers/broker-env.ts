/**
 * Broker tests run against the real server named by an env var. Without it the suite is
 * skipped, loudly, so `npm test` passes on a laptop without RabbitMQ, NATS or Redis.
 */
export function describeWithBroker(envVar: string, name: string, suite: (url: string) => void): void {
  const url = process.env[envVar];
  if (!url) {
    console.warn(`skipping "${name}": set ${envVar} to run it against a real broker`);
    describe.skip(name, () => suite(''));
    return;
  }
  describe(name, () => suite(url));
}

/** Names unique to this run, so parallel or repeated runs never read each other's messages. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

export { eventually } from '../helpers/eventually';
