import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startNodeFlags } from '../../bench/processes';

const REPO = join(__dirname, '..', '..');

/** The JSON-array CMD of the Dockerfile's last stage. */
function dockerCommand(): string[] {
  const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(readFileSync(join(REPO, 'Dockerfile'), 'utf8'));
  if (!cmd) throw new Error('the Dockerfile has no CMD in JSON form');
  return JSON.parse(cmd[1]!) as string[];
}

describe('how the receiver is started', () => {
  it('the image runs main.js with the same node flags as npm start (and the bench)', () => {
    const flags = startNodeFlags(REPO);
    expect(flags).toEqual(['--max-semi-space-size=8', '--max-old-space-size=512']);
    expect(dockerCommand()).toEqual(['node', ...flags, 'dist/main.js']);
  });

  it('node takes those flags: the main thread heap is capped (V8 counts three semi-spaces in the limit)', () => {
    const limitOf = (flags: string[]) =>
      Number(spawnSync(process.execPath, [...flags, '-p', "require('node:v8').getHeapStatistics().heap_size_limit / 1048576"], { encoding: 'utf8' }).stdout);
    const capped = limitOf(startNodeFlags(REPO));
    // 512 MB of old generation plus the young generation: 536 with 8 MB semi-spaces, 560 with node's default 16.
    expect(capped).toBeGreaterThanOrEqual(512);
    expect(capped).toBeLessThan(limitOf(['--max-old-space-size=512']));
  });
});
