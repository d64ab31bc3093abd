import { Writable } from 'node:stream';
import fc from 'fast-check';
import { escapeHtml, html } from '../../src/console/html';
import { formatMoney } from '../../src/money/format-money';
import { maskCardData, maskCardText } from '../../src/observability/card-numbers';
import { createLogger } from '../../src/observability/logger';
import { maskFreeText, maskSensitive } from '../../src/observability/mask';
import { cardDigits, DIGIT_KINDS, LINE_BREAKS, writeCard } from '../helpers/written-cards';

/**
 * A formatted amount is never masked, in any view, wherever it stands: before the next line's
 * year, beside the next column's figure. And a card number is found within one line, never by
 * joining groups across a line break, while one written within a line is always masked.
 */

const grouped = (n: number, locale = 'en-US') => n.toLocaleString(locale);
const dollars = (cents: number) => (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Amounts as the service and people write them: ₩, 원, $, US$, KRW, with thousands separators, signed or not. */
const fullWidth = (text: string) => text.replace(/[0-9,]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));

const amount = fc.tuple(fc.integer({ min: 0, max: 999_999_999_999 }), fc.integer({ min: 0, max: 9 }), fc.boolean()).map(([n, form, negative]) => {
  const sign = negative ? '-' : '';
  switch (form) {
    case 0: return `${sign}₩${grouped(n)}`;
    case 1: return `${sign}${grouped(n)}원`;
    case 2: return `${sign}$${dollars(n)}`;
    case 3: return `${sign}US$${dollars(n)}`;
    case 4: return `KRW ${sign}${grouped(n)}`;
    case 5: return formatMoney(negative ? -n : n, 'KRW');
    case 6: return formatMoney(negative ? -n : n, 'USD', 'ko-KR');
    case 7: return `${sign}\uffe6${fullWidth(grouped(n))}`;
    case 8: return `${sign}${fullWidth(grouped(n))}원`;
    default: return formatMoney(n, 'KRW', 'ko-KR');
  }
});

/** What stands beside amounts in a table or a line: dates, times, counts, ids, words (none can be a card itself). */
const filler = fc.constantFrom('2026-12-01', '2026-11-22 10:00:00 KST', '1 ×', '12', 'T0001234', 'paid 1', 'unknown:', '+0 / -0', '-', 'net', '승인', '2026');
const cell = fc.oneof({ weight: 3, arbitrary: amount }, { weight: 2, arbitrary: filler });
/** Columns of a terminal table (two spaces or more), of a Markdown or log line, and line breaks between rows. */
const columnGap = fc.constantFrom('  ', '   ', ' ', ' | ', '\t', ', ', ' × ');
const lineBreak = fc.constantFrom(...LINE_BREAKS.slice(0, 7));

const table = fc.array(fc.tuple(fc.array(fc.tuple(cell, columnGap), { minLength: 1, maxLength: 6 }), lineBreak), { minLength: 1, maxLength: 6 })
  .map((rows) => rows.map(([cells, end]) => cells.map(([text, gap]) => text + gap).join('') + end).join(''));

function logged(message: string): string {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', stream: new Writable({ write: (chunk, _enc, done) => { lines.push(String(chunk)); done(); } }) });
  logger.info(message, { detail: message });
  const line = JSON.parse(lines[0]!) as Record<string, string>;
  expect(line.detail).toBe(line.message);
  return line.message!;
}

const amountsIn = (text: string) => [...text.matchAll(/-?(?:US\$|\$|[₩\uffe6]|KRW )-?[\d,.\uff10-\uff19\uff0c]*[\d\uff10-\uff19]|-?[\d\uff10-\uff19][\d,.\uff10-\uff19\uff0c]*원/g)].map((m) => m[0]);

describe('amounts are never masked as card numbers', () => {
  test('the issue\'s lines: an amount before the next line\'s year, and after the previous column\'s', () => {
    const lines = [
      '2026-11-22  T0005000  card: 1 × ₩416,457,964\n2026-11-22  T0005001  card: 1 × ₩416,545,073',
      '2026-11-22  T0005000  KRW  1 × ₩416,584,668  -  -  -  ₩416,584,668  -  +0 / -0  paid 1\n2026-11-22',
      '승인 416,457,964원\n2026년 12월',
      '$4,164,579.64\n2026',
      // Full-width, as a Korean input method may write it.
      '\uffe6\uff14\uff11\uff16\uff0c\uff14\uff15\uff17\uff0c\uff19\uff16\uff14 2026',
      '\uff14\uff11\uff16\uff0c\uff14\uff15\uff17\uff0c\uff19\uff16\uff14원 2026',
    ];
    for (const text of lines) {
      expect(maskCardText(text)).toBe(text);
      // As a field's text, `card: …` is a pair named for a card: what stands beside the amount is masked, the amount never.
      const field = (maskSensitive({ shopValue1: text }) as Record<string, string>).shopValue1!;
      for (const written of amountsIn(text)) expect(field).toContain(written);
      expect(html`<td>${text}</td>`.text).toBe(`<td>${escapeHtml(text)}</td>`);
      expect(logged(text)).toBe(text);
    }
  });

  test('random amounts across line breaks and table columns stay whole in every view', () => {
    fc.assert(
      fc.property(table, (text) => {
        expect(maskCardText(text)).toBe(text);
        expect(maskCardData({ shopValue1: text })).toEqual({ shopValue1: text });
        expect(maskSensitive({ shopValue1: text, resMsg: text })).toEqual({ shopValue1: text, resMsg: text });
        expect(html`<td>${text}</td>`.text).toBe(`<td>${escapeHtml(text)}</td>`);
        expect(logged(text)).toBe(text);
        expect((maskCardData(Buffer.from(text, 'utf8')) as Buffer).toString('utf8')).toBe(text);
        // Free text also keeps the last four of any other long digit run: never of an amount.
        const free = maskFreeText(text);
        for (const written of amountsIn(text)) expect(free).toContain(written);
      }),
      { numRuns: 1500 },
    );
  });

  test('a card number within one line is always masked, beside amounts, in ASCII or full-width digits, with spaces, dashes or none', () => {
    const card = fc.tuple(cardDigits, fc.constantFrom('ascii', 'full-width'), fc.constantFrom<string[][] | null>([[' ']], [['-']], [['\uff0d']], [['\u3000']], null))
      .map(([digits, kind, gaps]) => writeCard(digits, [kind], gaps));
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 2 }), card, fc.array(amount, { maxLength: 2 }), columnGap, lineBreak, (before, written, after, gap, end) => {
        const text = [...before, written.written, ...after].join(gap) + end + after.join(gap);
        for (const out of [maskCardText(text), logged(text)]) expect(out).toBe(text.replace(written.written, written.masked));
        // A field and free text may hide more (a resident number's shape, every long digit run's last four), never an amount.
        for (const out of [(maskSensitive({ shopValue1: text }) as Record<string, string>).shopValue1!, maskFreeText(text)]) {
          expect(out).not.toContain(written.written);
          for (const a of [...before, ...after]) expect(out).toContain(a);
        }
      }),
      { numRuns: 1500 },
    );
  });

  test('groups are not joined across a line break, however it is written', () => {
    for (const lineEnd of LINE_BREAKS) {
      for (const kind of ['ascii', 'full-width']) {
        const split = writeCard('4111111111111111', [kind], [[' '], [lineEnd], [' ']]).written;
        expect(maskCardText(split)).toBe(split);
        const whole = writeCard('4111111111111111', [kind], [[' ']]);
        expect(maskCardText(`${whole.written}${lineEnd}2026`)).toBe(`${whole.masked}${lineEnd}2026`);
        expect(maskCardText(`2026${lineEnd}${whole.written}`)).toBe(`2026${lineEnd}${whole.masked}`);
      }
    }
    expect(Object.keys(DIGIT_KINDS)).toContain('full-width');
  });
});
