import { EVENT_KINDS } from './event-catalogue';
import { asyncApiDocument, messageName } from './asyncapi-document';

const SECTION_START = '<!-- event types: written by npm run asyncapi from docs/asyncapi.json; do not edit by hand -->';
const SECTION_END = '<!-- end of event types -->';

// Every block of the docs says whether a test runs it; an example event is data, checked instead
// against the document's schemas by the contract suite.
const EXAMPLE_MARK = '<!-- ci: not run: an example event that npm run asyncapi writes from the document; the contract suite validates it against its schema -->';

const ORIGINS = {
  notification: 'a notification from the gateway, as received',
  command: 'a command the internal API sent to the gateway, in its final state',
  ledger: "the payment ledger's view of an order",
} as const;

/**
 * docs/queues.md's list of event types: the same summaries and examples as the AsyncAPI
 * document, so the readable contract cannot drift from the checked one.
 */
// scripts/write-asyncapi.js calls it from dist/.
// ts-unused-exports:disable-next-line
export function eventTypesSection(document = asyncApiDocument()): string {
  const messages = (document.components as { messages: Record<string, { examples: Array<{ payload: unknown }> }> }).messages;
  const rows = EVENT_KINDS.map((kind) => `| \`${kind.type}\` | ${kind.summary} | ${ORIGINS[kind.origin]} |`);
  const examples = EVENT_KINDS.map((kind) => [
    `### \`${kind.type}\``,
    '',
    `${kind.summary[0]!.toUpperCase()}${kind.summary.slice(1)}. Message \`${messageName(kind.type)}\` in the document.`,
    '',
    EXAMPLE_MARK,
    '```json',
    JSON.stringify(messages[messageName(kind.type)]!.examples[0]!.payload, null, 2),
    '```',
  ].join('\n'));
  return [
    SECTION_START,
    '',
    '| type | what happened | from |',
    '|---|---|---|',
    ...rows,
    '',
    ...examples.flatMap((example) => [example, '']),
    SECTION_END,
  ].join('\n');
}

/** `markdown` with its event-types section replaced; throws when the markers are missing. */
export function withEventTypesSection(markdown: string, section = eventTypesSection()): string {
  const start = markdown.indexOf(SECTION_START);
  const end = markdown.indexOf(SECTION_END);
  if (start === -1 || end < start) throw new Error(`docs/queues.md has no "${SECTION_START}" … "${SECTION_END}" section`);
  return `${markdown.slice(0, start)}${section}${markdown.slice(end + SECTION_END.length)}`;
}
