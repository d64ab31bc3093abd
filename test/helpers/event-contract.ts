import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { eventExamples, notificationExample } from '../../src/contract/event-examples';
import { NOTI_TYPES } from '../../src/notifications/event-types';
import type { OutboundEvent } from '../../src/publishers/publisher';

/**
 * The queue contract checked against what a test really consumed: each event (a parsed object
 * or the JSON a consumer read) must have a message in the committed docs/asyncapi.json and
 * validate against its payload schema. Returns one line per problem, so a suite writes
 * `expect(contractProblems(consumed)).toEqual([])` and a failure names the event and the field.
 */
export const ASYNCAPI_PATH = join(__dirname, '..', '..', 'docs', 'asyncapi.json');

type Document = { components: { messages: Record<string, { name: string; payload: { $ref: string } }> } };

let validators: Map<string, ValidateFunction> | null = null;

function validatorsByType(): Map<string, ValidateFunction> {
  if (validators) return validators;
  const document = JSON.parse(readFileSync(ASYNCAPI_PATH, 'utf8')) as Document;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema(document, 'asyncapi');
  validators = new Map(Object.values(document.components.messages).map((message) => {
    const validate = ajv.getSchema(`asyncapi${message.payload.$ref}`);
    if (!validate) throw new Error(`docs/asyncapi.json: ${message.name}'s payload ${message.payload.$ref} is not there`);
    return [message.name, validate];
  }));
  return validators;
}

export function contractProblems(events: ReadonlyArray<unknown>): string[] {
  const byType = validatorsByType();
  const problems: string[] = [];
  for (const raw of events) {
    const event = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { id?: unknown; type?: unknown };
    const id = String(event.id);
    const type = String(event.type);
    const validate = byType.get(type);
    if (!validate) {
      problems.push(`${id}: event type ${JSON.stringify(event.type)} is not in docs/asyncapi.json`);
      continue;
    }
    if (validate(event)) continue;
    for (const error of validate.errors ?? []) problems.push(`${id} (${type}): ${error.instancePath || '/'} ${error.message ?? ''}`);
  }
  return problems;
}

/** The event types the document describes. */
export function contractTypes(): string[] {
  return [...validatorsByType().keys()];
}

/**
 * What a test consumed, passed through once it is known to match the contract: the harnesses
 * read their sinks through this, so every suite that looks at forwarded events checks them all.
 */
export function inContract<T>(events: T[]): T[] {
  const problems = contractProblems(events);
  if (problems.length > 0) throw new Error(`events that do not match docs/asyncapi.json:\n${problems.join('\n')}`);
  return events;
}

/** One event of every type the document describes, as the service's builders make them, ready for a publisher. */
export function oneOfEveryKind(): OutboundEvent[] {
  const events = [...NOTI_TYPES.map(notificationExample), ...Object.values(eventExamples())] as Array<{ id: string; type: string }>;
  return events.map((event) => ({ id: event.id, type: event.type, receivedAt: '2026-11-21T03:00:00.123Z', json: JSON.stringify(event) }));
}
