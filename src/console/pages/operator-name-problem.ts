import { html, isolated, type SafeHtml } from '../html';
import type { MessageKey } from '../i18n/catalogues';
import type { Translator } from '../i18n/translator';

/**
 * Why a name cannot name an operator, as the store says it (in English, which the CLI and the
 * internal API print), read back by its shape in the page's words. One of no known shape is shown
 * as it came, marked English.
 */
const SHAPES: ReadonlyArray<{ shape: RegExp; key: MessageKey; values: (m: RegExpExecArray) => Record<string, string> }> = [
  { shape: /^an operator name must not be empty$/, key: 'operatorName.empty', values: () => ({}) },
  { shape: /^an operator name is at most (\d+) characters$/, key: 'operatorName.tooLong', values: (m) => ({ max: m[1]! }) },
  { shape: /^an operator name must not hold control or invisible formatting characters$/, key: 'operatorName.unprintable', values: () => ({}) },
  { shape: /^an operator name must not start or end with whitespace$/, key: 'operatorName.edgeSpace', values: () => ({}) },
  { shape: /^"(.*)" is the bootstrap operator, who signs in with ADMIN_TOKEN$/, key: 'operatorName.bootstrap', values: (m) => ({ name: m[1]! }) },
  { shape: /^an operator name must not hold invisible characters \(fillers, joiners, variation selectors\)$/, key: 'operatorName.invisible', values: () => ({}) },
  { shape: /^an operator name must not hold whitespace other than the plain space$/, key: 'operatorName.oddSpace', values: () => ({}) },
  { shape: /^"(.*)" is reserved for the bootstrap operator, who signs in with ADMIN_TOKEN$/, key: 'operatorName.reservedBootstrap', values: (m) => ({ name: m[1]! }) },
  { shape: /^"(.*)" is reserved for the ledger's own resolutions$/, key: 'operatorName.reservedLedger', values: (m) => ({ name: m[1]! }) },
  { shape: /^an operator name must not read as another operator's: (.*) exists$/, key: 'operatorName.lookalike', values: (m) => ({ other: m[1]! }) },
];

export function operatorNameProblemText(t: Translator, problem: string): SafeHtml {
  for (const { shape, key, values } of SHAPES) {
    const m = shape.exec(problem);
    if (m) return t.rich(key, values(m));
  }
  return html`<span lang="en">${isolated(problem)}</span>`;
}
