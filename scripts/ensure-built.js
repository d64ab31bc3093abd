#!/usr/bin/env node
// `npm start`, `npm run cli`, `npm run simulate` and `npm run sandbox` run the compiled code; on
// a fresh clone (no dist/) or after a source edit that would be missing or stale. Build only
// then, so a restart or a repeated CLI call stays fast (a tsc run is 5-20 s), and keep tsc's
// output on stderr so `--json` stays pipeable.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const marker = join(root, 'dist', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(marker) || newestSource(join(root, 'src')) > statSync(marker).mtimeMs) {
  process.stderr.write('building dist/ first (npm run build)…\n');
  const tsc = require.resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: ['ignore', 2, 2] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
