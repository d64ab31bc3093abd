import { maskCardText } from '../observability/card-numbers';

/**
 * Server-side HTML where every interpolated value is text unless it is already SafeHtml.
 * Notification fields come from the internet (through the gateway): a `<script>` or an
 * `onerror=` in a shop order number must reach the operator's screen as characters.
 * Card data is masked in every text a page shows, whichever field it came in (a card number
 * typed as an order number); attribute values stay exact, so links and forms still work.
 */
const SAFE = Symbol('safe-html');
const MASKED = Symbol('masked-text');

export interface SafeHtml {
  readonly [SAFE]: true;
  readonly text: string;
}

/** Text masked already (a body's fields, a normalized event): escaped where it is written, not scanned again. */
export interface MaskedText {
  readonly [MASKED]: true;
  readonly text: string;
}

export function maskedText(text: string): MaskedText {
  return { [MASKED]: true, text };
}

type Interpolation = SafeHtml | MaskedText | string | number | boolean | null | undefined | readonly Interpolation[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => ESCAPES[ch]!);
}

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && SAFE in value;
}

function render(value: Interpolation, inAttribute: boolean): string {
  if (value === null || value === undefined || value === false) return '';
  if (isSafe(value)) return value.text;
  if (typeof value === 'object' && MASKED in value) return escapeHtml(value.text);
  if (Array.isArray(value)) return value.map((item: Interpolation) => render(item, inAttribute)).join('');
  return escapeHtml(inAttribute ? String(value) : maskCardText(String(value)));
}

/** Whether the text so far ends inside a tag: interpolated text is escaped, so every `<` and `>` in it is markup. */
function insideTag(text: string): boolean {
  return text.lastIndexOf('<') > text.lastIndexOf('>');
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let text = strings[0]!;
  values.forEach((value, i) => {
    text += render(value, insideTag(text)) + strings[i + 1]!;
  });
  return { [SAFE]: true, text };
}

/**
 * Text from outside (the gateway's messages, bank and card names, customers' names, order
 * numbers, notes, names a proxy sent): isolated, so right-to-left letters or a bidi override in it
 * cannot reorder what stands beside it (make `12000` read `00021`, or a name swap columns). The one
 * way every page shows such text.
 */
export function isolated(value: Interpolation): SafeHtml {
  return html`<bdi>${value}</bdi>`;
}

/** The same for plain text, where no element can go (a page's <title>): Unicode's first-strong isolate and its pop. */
export function isolatedText(text: string): string {
  return `\u2068${text}\u2069`;
}

const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * For a <pre> (JSON, an undecodable body), where a line cannot be isolated piece by piece: the
 * bidi controls written as JSON escapes, so they show instead of reordering the line.
 */
export function visibleBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
