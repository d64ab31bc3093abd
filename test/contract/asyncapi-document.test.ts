import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { asyncApiDocument } from '../../src/contract/asyncapi-document';
import { eventExamples, notificationExample } from '../../src/contract/event-examples';
import { withEventTypesSection } from '../../src/contract/event-types-section';
import type { CommandEvent } from '../../src/store/command-types';
import type { LedgerEvent } from '../../src/ledger/fold/ledger-events';
import type { OrderUpdated } from '../../src/ledger/fold/ledger-event-schema';
import { EVENT_TYPES, NOTI_TYPES, type EventType } from '../../src/notifications/event-types';
import { ASYNCAPI_PATH, contractProblems, contractTypes } from '../helpers/event-contract';

/**
 * Every type any builder can emit. A Record over the union of the builders' `type`s: a new
 * event type that is not listed here fails the typecheck, and one the document lacks fails below.
 */
const EMITTED: Record<EventType | CommandEvent['type'] | LedgerEvent['type'] | OrderUpdated['type'], true> = {
  ...(Object.fromEntries(Object.values(EVENT_TYPES).map((type) => [type, true])) as Record<EventType, true>),
  'wallet.cancel.succeeded': true,
  'wallet.cancel.failed': true,
  'van.net_cancel.failed': true,
  'order.status_changed': true,
  'order.updated': true,
  'ledger.discrepancy': true,
};

describe('the AsyncAPI document of the queue (docs/asyncapi.json)', () => {
  it('is what npm run asyncapi generates from the event schemas', () => {
    expect(JSON.parse(readFileSync(ASYNCAPI_PATH, 'utf8'))).toEqual(asyncApiDocument());
  });

  it("is what docs/queues.md lists under Event types, with the same examples", () => {
    const queues = readFileSync(join(__dirname, '..', '..', 'docs', 'queues.md'), 'utf8');
    expect(queues).toBe(withEventTypesSection(queues));
  });

  it('passes the AsyncAPI parser with no error and no warning', async () => {
    const { document, diagnostics } = await new Parser().parse(readFileSync(ASYNCAPI_PATH, 'utf8'));
    // Information and hints (such as "3.1.0 exists") are not problems of the document.
    const problems = new Set([DiagnosticSeverity.Error, DiagnosticSeverity.Warning]);
    expect(diagnostics.filter((d) => problems.has(d.severity)).map((d) => `${d.code} ${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
    expect(document?.channels().all().map((channel) => channel.id()).sort()).toEqual(['amqp', 'file', 'http', 'nats', 'redis']);
    expect(document?.messages().all().map((message) => message.name()).sort()).toEqual(Object.keys(EMITTED).sort());
  }, 30_000);

  it('describes every event type the service emits, one message each', () => {
    expect(contractTypes().sort()).toEqual(Object.keys(EMITTED).sort());
  });

  it("has each message's example validate against its payload", () => {
    const examples = [...NOTI_TYPES.map(notificationExample), ...Object.values(eventExamples())];
    expect(examples).toHaveLength(Object.keys(EMITTED).length);
    expect(contractProblems(examples)).toEqual([]);
  });

  it('refuses an event whose type it does not describe, and one missing a field', () => {
    const approval = notificationExample('10');
    const { pgCno: _dropped, ...withoutPgCno } = approval;
    expect(contractProblems([{ ...approval, type: 'payment.refunded' }, withoutPgCno])).toEqual([
      `${approval.id}: event type "payment.refunded" is not in docs/asyncapi.json`,
      expect.stringContaining("must have required property 'pgCno'"),
    ]);
  });
});
