import { Writable } from 'node:stream';
import fc from 'fast-check';
import { maskCardData, maskCardNumbers, maskCardText, passesLuhn, scanCardNumbers } from '../../src/observability/card-numbers';
import { createLogger } from '../../src/observability/logger';
import { maskFreeText, maskSensitive } from '../../src/observability/mask';

/** The check digit that makes `body` + it pass the Luhn check. */
function withCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (passesLuhn(`${body}${d}`)) return `${body}${d}`;
  throw new Error('unreachable');
}

/** How card numbers are written, by length: one run, or the groups on the card. */
const LAYOUTS: Record<number, number[]> = { 13: [4, 4, 5], 14: [4, 6, 4], 15: [4, 6, 5], 16: [4, 4, 4, 4], 17: [4, 4, 4, 5], 18: [4, 4, 4, 6], 19: [4, 4, 4, 4, 3] };

const cardDigits = fc
  .tuple(fc.integer({ min: 13, max: 19 }), fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
  .map(([length, first, rest]) => withCheckDigit(`${first}${rest.slice(0, length - 2).join('')}`))
  // What cannot be a card (an epoch-millisecond time, a yyyyMMddHHmmss time) is left readable on purpose.
  .filter((digits) => !(digits.length === 13 && digits[0] === '1') && !(digits.length === 14 && /^(19|20)/.test(digits)));

const writtenCard = fc.tuple(cardDigits, fc.constantFrom('', ' ', '-')).map(([digits, separator]) => {
  if (separator === '') return { digits, written: digits };
  const groups: string[] = [];
  let at = 0;
  for (const size of LAYOUTS[digits.length]!) groups.push(digits.slice(at, (at += size)));
  return { digits, written: groups.join(separator) };
});

/** Text around a number: anything, with a character that is neither a digit nor a hex letter beside it. */
const boundary = fc.constantFrom(' ', ':', '=', '"', ',', '/', '(', '\n', 'x', 'Z', '카', '_', '#');
const around = fc.tuple(fc.string({ maxLength: 30 }), boundary).map(([text, edge]) => ({ before: `${text}${edge}`, after: `${edge}${text}` }));

/** A value holding `text` somewhere: the text itself, JSON of it, or a form pair, under a random field. */
const holder = fc.constantFrom<(text: string) => unknown>(
  (text) => text,
  (text) => JSON.stringify({ memo: text }),
  (text) => `note=${encodeURIComponent(text)}&x=1`,
  (text) => ({ inner: [{ deeper: text }] }),
);

function survives(output: string, card: { digits: string; written: string }): boolean {
  return output.includes(card.digits) || output.includes(card.written) || output.includes(encodeURIComponent(card.written));
}

describe('card numbers are masked wherever they stand', () => {
  test('random Luhn-valid numbers embedded in random text in random fields never survive, in any view', () => {
    fc.assert(
      fc.property(writtenCard, around, holder, fc.string({ minLength: 1, maxLength: 12 }), (card, text, hold, field) => {
        const value = hold(`${text.before}${card.written}${text.after}`);
        const record = { [field]: value, nested: { [field]: value } };
        expect(survives(JSON.stringify(maskSensitive(record)), card)).toBe(false);
        expect(survives(JSON.stringify(maskCardData(record)), card)).toBe(false);
        if (typeof value === 'string') {
          expect(survives(maskFreeText(value), card)).toBe(false);
          expect(survives(maskCardText(value), card)).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('at most the first six and the last four digits stay, separators as written', () => {
    expect(maskSensitive({ shopValue1: '4111111111111111' })).toEqual({ shopValue1: '411111******1111' });
    expect(maskSensitive({ memo: 'card 4111 1111 1111 1111 exp 12/28' })).toEqual({ memo: 'card 4111 11** **** 1111 exp 12/28' });
    expect(maskSensitive({ x: 'amex 3782-822463-10005' })).toEqual({ x: 'amex 3782-82****-*0005' });
    expect(maskSensitive({ x: '카드4111111111111111입니다' })).toEqual({ x: '카드411111******1111입니다' });
    // A form writes a space as + or %20.
    expect(maskCardText('pan=4111+1111+1111+1111&y=2')).toBe('pan=4111+11**+****+1111&y=2');
    expect(maskCardText('pan=4111%201111%201111%201111')).toBe('pan=4111%2011**%20****%201111');
    // As a field's name, and as a bare number.
    expect(maskSensitive({ '4111111111111111': 'x', n: 4111111111111111 })).toEqual({ '411111******1111': 'x', n: '411111******1111' });
  });

  test('card secrets are masked whole, in any case, nested, in JSON text, forms and bytes', () => {
    const body = { mallId: 'T0001234', CVC: '123', cvv2: 4567, Track2: '4111111111111111=28121010000012300000', card: { track1: 'B4111111111111111^HONG/GILDONG^2812', cvc2: '999' }, track_1: { any: 'thing' } };
    expect(maskSensitive(body)).toEqual({
      mallId: 'T0001234', CVC: '***', cvv2: '****', Track2: '*'.repeat(37), card: { track1: '*'.repeat(35), cvc2: '***' }, track_1: '<masked>',
    });
    expect(maskCardData(body)).toEqual(maskSensitive(body));
    expect(maskSensitive({ shopValue1: '{"cvc": "321", "trackNo": "A1"}' })).toEqual({ shopValue1: '{"cvc": "***", "trackNo": "A1"}' });
    expect(maskFreeText('mall=T1&track2=6011000990139424%3D2812&CVV=812')).toBe('mall=T1&track2=*********************&CVV=***');
    const bytes = maskCardData(Buffer.from('{"cvc":"123","pan":"4111111111111111","name":"홍길동"}')) as Buffer;
    expect(bytes.toString('utf8')).toBe('{"cvc":"***","pan":"411111******1111","name":"홍길동"}');
  });

  test('numbers that are not card numbers stay readable: Luhn failures, amounts, ids, times', () => {
    const fields = {
      pgCno13: '4111111111112', // 13 digits, fails the Luhn check
      pgCno: '26112112000100000001',
      amount: '1000000',
      transactionDate: '20261122093002', // passes the Luhn check; a time
      id: 'evt_4111111111111111abcdefabcdef0123',
      at: 1764000000000,
      padded: '0000000000000018',
      order: 'ORD-1764000000000-5',
      phone: '+82 10 1234 5678',
    };
    expect(passesLuhn('20261122093002')).toBe(true);
    expect(passesLuhn('0000000000000018')).toBe(true);
    expect(maskCardData(fields)).toEqual(fields);
    expect(maskCardText(JSON.stringify(fields))).toBe(JSON.stringify(fields));
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{12,18}$/), (digits) => {
        fc.pre(!passesLuhn(digits));
        expect(maskCardText(`pgCno ${digits}`)).toBe(`pgCno ${digits}`);
      }),
      { numRuns: 500 },
    );
  });

  test('the quick look that lets most texts through unscanned never changes what is masked', () => {
    // Texts dense in what the scan reads: digit runs of every length (cards among them), the
    // separators written cards use, percent-escapes, hex letters, an epoch time in an order number.
    const piece = fc.oneof(
      fc.stringMatching(/^\d{1,20}$/),
      cardDigits,
      writtenCard.map((card) => card.written),
      fc.constantFrom(' ', '-', '+', '%20', '%2', '%', 'a', 'F', 'x', '=', 'ORD-', '1764000000000', 'evt_', '카'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(maskCardNumbers(text)).toBe(scanCardNumbers(text));
      }),
      { numRuns: 5000 },
    );
  });

  test('a log message and every other text field of a log line are masked too', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', stream: new Writable({ write: (chunk, _enc, done) => { lines.push(String(chunk)); done(); } }) });
    logger.info('gateway answered for 4111-1111-1111-1111', { detail: 'track2=4111111111111111=2812', shopValue1: '5555555555554444' });
    const line = JSON.parse(lines[0]!) as Record<string, string>;
    expect(line.message).toBe('gateway answered for 4111-11**-****-1111');
    expect(line.detail).toBe(`track2=${'*'.repeat(21)}`);
    expect(line.shopValue1).toBe('555555******4444');
  });
});
