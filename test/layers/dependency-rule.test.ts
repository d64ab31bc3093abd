import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * The layer rule in `.dependency-cruiser.cjs` is run by `npm test` over the real tree; these
 * tests prove it bites. Each builds a tiny tree with the real folder names in a temporary
 * directory (never in src/, which other suites compile while this one runs) and runs the same
 * command `npm run lint:deps` runs, with the repository's own configuration.
 */
const root = resolve(__dirname, '../..');
const config = join(root, '.dependency-cruiser.cjs');
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'layers-'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** Runs the rule over the tree; the exit code and the report. */
function check(): { code: number | null; report: string } {
  const run = spawnSync(process.execPath, [depcruise, 'src', '--config', config, '--output-type', 'err'], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { code: run.status, report: `${run.stdout}${run.stderr}` };
}

/** A small tree where every import points down: the service starts the flow, which uses the store. */
const downward = {
  'src/main.ts': "import { receive } from './http/receive';\nreceive();\n",
  'src/http/receive.ts': "import { save } from '../store/save';\nexport const receive = () => save();\n",
  'src/store/save.ts': "import { key } from '../notifications/key';\nexport const save = () => key();\n",
  'src/notifications/key.ts': "import { sha } from '../sha256-hex';\nexport const key = () => sha();\n",
  'src/sha256-hex.ts': 'export const sha = () => 1;\n',
};

test('a tree whose imports all point down passes', () => {
  tree(downward);
  const { code, report } = check();
  expect(report).toContain('no dependency violations');
  expect(code).toBe(0);
});

test('a domain module importing the store fails the rule', () => {
  tree({
    ...downward,
    'src/notifications/key.ts': "import type { save } from '../store/save';\nexport const key = (_: typeof save) => 1;\n",
  });
  const { code, report } = check();
  expect(report).toContain('no-upward-from-domain: src/notifications/key.ts → src/store/save.ts');
  expect(code).not.toBe(0);
});

test('the ground importing a feature fails the rule', () => {
  tree({ ...downward, 'src/sha256-hex.ts': "import './http/receive';\nexport const sha = () => 1;\n" });
  const { code, report } = check();
  expect(report).toContain('no-upward-from-ground: src/sha256-hex.ts → src/http/receive.ts');
  expect(code).not.toBe(0);
});

test('an import cycle fails the rule, even inside one folder', () => {
  tree({
    ...downward,
    'src/store/save.ts': "import { row } from './row';\nexport const save = () => row();\n",
    'src/store/row.ts': "import { save } from './save';\nexport const row = (): number => (save ? 1 : 0);\n",
  });
  const { code, report } = check();
  expect(report).toContain('no-circular');
  expect(code).not.toBe(0);
});

test('production code importing test machinery fails the rule', () => {
  tree({
    ...downward,
    'test/helpers/fixture.ts': 'export const fixture = 1;\n',
    'src/store/save.ts': "import { fixture } from '../../test/helpers/fixture';\nexport const save = () => fixture;\n",
  });
  const { code, report } = check();
  expect(report).toContain('not-to-test: src/store/save.ts → test/helpers/fixture.ts');
  expect(code).not.toBe(0);
});

test('a source file nothing imports fails the rule', () => {
  tree({ ...downward, 'src/store/forgotten.ts': 'export const forgotten = 1;\n' });
  const { code, report } = check();
  expect(report).toContain('no-orphans: src/store/forgotten.ts');
  expect(code).not.toBe(0);
});

test('a kept upward import is allowed for its one module, and only for it', () => {
  tree({
    ...downward,
    'src/notifications/event-types.ts': 'export const NOTI_TYPES = [\'10\'];\n',
    'src/observability/metrics.ts': "import { NOTI_TYPES } from '../notifications/event-types';\nexport const types = NOTI_TYPES;\n",
    'src/main.ts': "import { receive } from './http/receive';\nimport { types } from './observability/metrics';\nreceive(types);\n",
    'src/http/receive.ts': "import { save } from '../store/save';\nexport const receive = (_?: unknown) => save();\n",
  });
  expect(check().code).toBe(0);

  tree({ 'src/observability/metrics.ts': "import { NOTI_TYPES } from '../notifications/event-types';\nimport { save } from '../store/save';\nexport const types = [NOTI_TYPES, save];\n" });
  const { code, report } = check();
  expect(report).toContain('no-upward-from-ground: src/observability/metrics.ts → src/store/save.ts');
  expect(report).not.toContain('src/notifications/event-types.ts');
  expect(code).not.toBe(0);
});
