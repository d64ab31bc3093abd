#!/usr/bin/env node
// Writes docs/asyncapi.json from the built service (the document GET /v1/asyncapi.json serves,
// generated from the zod schemas the events are built with) and the event-types section of
// docs/queues.md from it. `npm run asyncapi` after changing an event; a test fails while either
// committed copy differs, and `npm test` validates the document with the AsyncAPI parser.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const dist = join(__dirname, '..', 'dist', 'contract');
const { asyncApiDocument } = require(join(dist, 'asyncapi-document.js'));
const { eventTypesSection, withEventTypesSection } = require(join(dist, 'event-types-section.js'));

const docs = join(__dirname, '..', 'docs');
const document = asyncApiDocument();
writeFileSync(join(docs, 'asyncapi.json'), `${JSON.stringify(document, null, 2)}\n`);
const queues = join(docs, 'queues.md');
writeFileSync(queues, withEventTypesSection(readFileSync(queues, 'utf8'), eventTypesSection(document)));
process.stderr.write(`wrote ${join(docs, 'asyncapi.json')} and the event types of ${queues}\n`);
