import { Writable } from 'node:stream';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { escapeHtml, html } from '../../src/console/html';
import { maskCardData, maskCardNumbers, maskCardText, passesLuhn, scanCardNumbers } from '../../src/observability/card-numbers';
import { createLogger } from '../../src/observability/logger';
import { maskFreeText, maskSensitive } from '../../src/observability/mask';
import { cardDigits, DIGIT_KINDS, SEPARATORS, writeCard } from '../helpers/written-cards';

/**
 * Issue 35, item 7: a card number is masked whatever stands between its groups and whatever
 * script its digits are written in, escaped or not, in every view.
 */

const written = fc
  .tuple(
    cardDigits,
    fc.array(fc.constantFrom(...Object.keys(DIGIT_KINDS)), { minLength: 1, maxLength: 19 }),
    fc.option(fc.array(fc.array(fc.constantFrom(...SEPARATORS), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), { freq: 4 }),
  )
  .map(([digits, kinds, gaps]) => writeCard(digits, kinds, gaps));

/** Text beside the card that neither joins nor breaks it. */
const before = fc.constantFrom('', 'card ', '카드번호: ', '{"memo":"', 'pan=', 'x', '결제 카드 (');
const after = fc.constantFrom('', ' approved', '입니다', '"}', '&y=2', 'x', ')');

const stars = (text: string) => [...text].filter((ch) => ch === '*').length;

function logged(message: string, fields: Record<string, unknown>): Record<string, string> {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', stream: new Writable({ write: (chunk, _enc, done) => { lines.push(String(chunk)); done(); } }) });
  logger.info(message, fields);
  return JSON.parse(lines[0]!) as Record<string, string>;
}

describe('card numbers are masked whatever separates their groups and whatever their digits are written in', () => {
  test('the issue\'s examples', () => {
    const examples: Array<[string, string]> = [
      ['4163.2332.1948.9632', '4163.23**.****.9632'],
      ['4163/2332/1948/9632', '4163/23**/****/9632'],
      ['4163\u00a02332\u00a01948\u00a09632', '4163\u00a023**\u00a0****\u00a09632'],
      ['4163  2332  1948  9632', '4163  23**  ****  9632'],
      ['4163\u20132332\u20131948\u20139632', '4163\u201323**\u2013****\u20139632'],
      ['4163\t2332\t1948\t9632', '4163\t23**\t****\t9632'],
      ['4163%2D2332%2D1948%2D9632', '4163%2D23**%2D****%2D9632'],
      ['４１６３２３３２１９４８９６３２', '４１６３２３******９６３２'],
      ['４３３１ ２３３２ １９４８ ９６３９', '４３３１ ２３** **** ９６３９'],
    ];
    for (const [text, masked] of examples) {
      expect(passesLuhn(text.normalize('NFKC').replace(/%2D|\D/g, ''))).toBe(true);
      expect(maskCardText(text)).toBe(masked);
      expect(maskSensitive({ shopValue1: text })).toEqual({ shopValue1: masked });
    }
  });

  test('every separator run and digit kind, in every view: text, a field, a log line, a page, raw bytes', () => {
    fc.assert(
      fc.property(written, before, after, (card, head, tail) => {
        const text = `${head}${card.written}${tail}`;
        const expected = `${head}${card.masked}${tail}`;
        expect(maskCardText(text)).toBe(expected);
        expect(maskCardData({ shopValue1: text, nested: [{ memo: text }] })).toEqual({ shopValue1: expected, nested: [{ memo: expected }] });
        expect(html`<td>${text}</td>`.text).toBe(`<td>${escapeHtml(expected)}</td>`);
        expect((maskCardData(Buffer.from(text, 'utf8')) as Buffer).toString('utf8')).toBe(expected);
        const eucKr = iconv.encode(text, 'cp949');
        if (iconv.decode(eucKr, 'cp949') === text) {
          expect(iconv.decode(maskCardData(eucKr) as Buffer, 'cp949')).toBe(expected);
        }
        const line = logged(text, { detail: text });
        expect([line.message, line.detail]).toEqual([expected, expected]);
        // The masking of personal data may hide more (a digit run in free text keeps its last four), never less.
        const middle = card.digits.length - 10;
        for (const out of [(maskSensitive({ shopValue2: text, resMsg: text }) as Record<string, string>).resMsg!, maskFreeText(text)]) {
          expect(out).not.toContain(card.written);
          expect(stars(out) - stars(text)).toBeGreaterThanOrEqual(middle);
        }
      }),
      { numRuns: 1500 },
    );
  });

  test('the quick look that lets most texts through unscanned never changes what is masked', () => {
    const digitRun = fc.tuple(fc.stringMatching(/^\d{1,20}$/), fc.constantFrom(...Object.keys(DIGIT_KINDS))).map(([digits, kind]) => [...digits].map((d) => DIGIT_KINDS[kind]!(Number(d))).join(''));
    const piece = fc.oneof(digitRun, written.map((card) => card.written), fc.constantFrom(...SEPARATORS, 'a', 'x', '카', '20261122093002', '1764000000000'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(maskCardNumbers(text)).toBe(scanCardNumbers(text));
        const bytes = Buffer.from(text, 'utf8').toString('latin1');
        expect((maskCardData(Buffer.from(text, 'utf8')) as Buffer).toString('latin1')).toBe(scanCardNumbers(bytes, true));
      }),
      { numRuns: 3000 },
    );
  });

  test('an escape that stands for a letter is read as it stands: its digits may begin a card', () => {
    expect(maskCardText('%4111111111111111')).toBe('%411111******1111');
    expect(maskCardText('\\u4111111111111111')).toBe('\\u411111******1111');
    expect(maskCardText('&#65;4111111111111111')).toBe('&#65;411111******1111');
    // A character of several bytes stays one unit: 카 escaped, then a card.
    expect(maskCardText('%EC%B9%B44111111111111111')).toBe('%EC%B9%B4411111******1111');
  });

  test('numbers that are not cards stay readable whatever separates them', () => {
    // Fails the Luhn check; a 20-digit pgCno; a yyyyMMddHHmmss time; an epoch-millisecond time; ids in hexadecimal.
    const readable = ['4163.2332.1948.9633', '２６１１２１１２０００１００００００００１', '2026.1122.0930.02', '1764-0000-00000', 'evt_4111111111111111abcdefabcdef0123'];
    for (const text of readable) expect(maskCardText(text)).toBe(text);
  });
});
