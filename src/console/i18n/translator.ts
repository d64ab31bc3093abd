import { IntlMessageFormat } from 'intl-messageformat';
import { formatMoney } from '../../money/format-money';
import { KST_OFFSET_MS } from '../../notifications/kst-date';
import { html, type SafeHtml } from '../html';
import { CATALOGUES, type MessageKey } from './catalogues';
import { INTL_LOCALE, type Locale } from './locale';

type Values = Record<string, string | number | SafeHtml | null | undefined>;

/** Markup a message may carry: a fixed set, so a catalogue entry can never inject anything else (and no value can stand in for a tag). */
const TAGS = {
  code: (chunks: unknown[]) => html`<code>${chunks as string[]}</code>`,
  strong: (chunks: unknown[]) => html`<strong>${chunks as string[]}</strong>`,
  mono: (chunks: unknown[]) => html`<span class="mono">${chunks as string[]}</span>`,
};

export interface Translator {
  locale: Locale;
  /** The message as text (the page's html`` escapes it). */
  (key: MessageKey, values?: Values): string;
  /** The message with its <code>/<strong>/<mono> tags as markup and every value escaped. */
  rich(key: MessageKey, values?: Values): SafeHtml;
  /** An amount in minor units, in its currency, as this language writes money. */
  money(minor: number, currency: string): string;
  /** An instant in Korean time, as this language writes dates. */
  time(iso: string | null | undefined): string;
  /** A plain number with this language's separators. */
  number(n: number): string;
}

const compiled = new Map<string, IntlMessageFormat>();

function formatOf(locale: Locale, key: MessageKey): IntlMessageFormat | null {
  const id = `${locale}\u0000${key}`;
  let format = compiled.get(id);
  if (!format) {
    const message = (CATALOGUES[locale] as Record<string, string | undefined>)[key];
    if (message === undefined) return null;
    format = new IntlMessageFormat(message, INTL_LOCALE[locale]);
    compiled.set(id, format);
  }
  return format;
}

const KO_TIME = new Intl.DateTimeFormat('ko-KR', {
  timeZone: 'Asia/Seoul', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
});

/** Operators and the gateway's portal both think in Korean time. */
export function kstTimeIn(locale: Locale, iso: string | null | undefined): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  if (locale === 'ko') return `${KO_TIME.format(new Date(ms))} KST`;
  return `${new Date(ms + KST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')} KST`;
}

const translators = new Map<Locale, Translator>();

/**
 * The console's words in one language. A key missing from the catalogue is shown as the key
 * itself, which the catalogue tests look for on every page.
 */
export function translatorFor(locale: Locale): Translator {
  const known = translators.get(locale);
  if (known) return known;
  const render = (key: MessageKey, values?: Values): unknown => {
    const format = formatOf(locale, key);
    return format ? format.format({ ...values, ...TAGS } as unknown as Record<string, never>) : key;
  };
  const t = ((key: MessageKey, values?: Values) => {
    const out = render(key, values);
    return Array.isArray(out) ? out.map((part) => (typeof part === 'string' ? part : (part as SafeHtml).text)).join('') : String(out);
  }) as Translator;
  t.locale = locale;
  t.rich = (key, values) => {
    const out = render(key, values);
    return html`${(Array.isArray(out) ? out : [out]) as Array<string | SafeHtml>}`;
  };
  t.money = (minor, currency) => formatMoney(minor, currency, INTL_LOCALE[locale]);
  t.time = (iso) => kstTimeIn(locale, iso);
  t.number = (n) => n.toLocaleString(INTL_LOCALE[locale]);
  translators.set(locale, t);
  return t;
}
