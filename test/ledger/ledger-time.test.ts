import fc from 'fast-check';
import { epochMs, isIsoOf, isoOf } from '../../src/ledger/fold/ledger-time';

const pad = (value: number, width: number): string => String(value).padStart(width, '0');
/** Texts near the two stored forms, with every field at and past its edges. */
const nearStoredForm = fc
  .record({
    year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1960, max: 2100 })),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 25 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 60 }),
    fraction: fc.constantFrom('', '.', '.1', '.12', '.123', '.999', '.1234', ',123', '.12a'),
    zone: fc.oneof(
      fc.constantFrom('Z', 'z', '', '+09:00', '-00:00', '+0900', '+09', 'UTC', 'Z '),
      fc.record({ sign: fc.constantFrom('+', '-'), h: fc.integer({ min: 0, max: 25 }), m: fc.integer({ min: 0, max: 60 }) }).map(({ sign, h, m }) => `${sign}${pad(h, 2)}:${pad(m, 2)}`),
    ),
    separator: fc.constantFrom('T', 'T', 'T', ' ', 't'),
  })
  .map((t) => `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}${t.separator}${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}${t.fraction}${t.zone}`);

const parsed = (text: string): number => {
  try {
    return epochMs('at', text);
  } catch {
    return NaN;
  }
};

describe('ledger time: the stored forms read by hand', () => {
  it('epochMs gives what Date.parse gives, and refuses what it refuses', () => {
    fc.assert(
      fc.property(fc.oneof(nearStoredForm, fc.string()), (text) => {
        expect(parsed(text)).toBe(Date.parse(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('the receiver\'s and the gateway\'s own forms, with a 29 February and a 24:00 left to Date.parse', () => {
    for (const text of ['2026-11-21T03:00:00.000Z', '2026-11-21T12:00:00+09:00', '2028-02-29T23:59:59.999Z', '2026-02-29T00:00:00.000Z', '2026-01-01T24:00:00.000Z', '0099-01-01T00:00:00.000Z']) {
      expect(parsed(text)).toBe(Date.parse(text));
    }
  });

  it('a text stands for isoOf(ms) exactly when it is what isoOf(ms) prints', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(100, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }), (ms) => {
        expect(isIsoOf(isoOf(ms), ms)).toBe(true);
        expect(isIsoOf(isoOf(ms), ms + 1)).toBe(false);
      }),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(nearStoredForm, (text) => {
        const ms = Date.parse(text);
        if (isIsoOf(text, ms)) expect(isoOf(ms)).toBe(text);
      }),
      { numRuns: 20_000 },
    );
  });
});
