#!/usr/bin/env node
// Writes docs/openapi.json from the built service: the document GET /v1/openapi.json serves,
// generated from the zod schemas the routes validate with. `npm run openapi` after changing a
// schema; a test fails while the committed copy differs, and `npm test` lints the copy.
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { openApiDocument } = require(join(__dirname, '..', 'dist', 'api', 'openapi.js'));

const target = join(__dirname, '..', 'docs', 'openapi.json');
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
process.stderr.write(`wrote ${target}\n`);
