import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maskedOutput } from '../../src/cli/masked-output';
import { formatTable } from '../../src/cli/table';
import { formatMoney } from '../../src/money/format-money';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { passesLuhn } from '../../src/observability/card-numbers';
import { notify } from '../daily-summary/summary-kit';
import { runCliCaptured } from './seeded-receiver';

/**
 * A formatted amount is never masked as a card number: `summary` printed `card: 1 × ₩416,457,***`
 * because the amount's digit groups and the next line's year read as one Luhn-valid number.
 */

/** Amounts of ₩200M to ₩1B whose digits, with the next line's year, pass the Luhn check: each was masked before. */
function amountsBeforeTheYear(count: number): number[] {
  const found: number[] = [];
  for (let amount = 416_457_964; found.length < count; amount += 7_919) {
    if (passesLuhn(`${amount}2026`)) found.push(amount);
  }
  return found;
}

describe('noti-receiver prints every amount whole', () => {
  let dir: string;
  let stores: Stores;
  const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}` });
  const amounts = amountsBeforeTheYear(4);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-cli-amounts-'));
    stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`);
    // One mall each: `summary` prints a line per mall and day, so each amount stands before the next line's date.
    for (const [i, amount] of amounts.entries()) {
      await stores.store.record(notify.paid({ mallId: `T000${5000 + i}`, shopOrderNo: `ORD-AMT-${i}` }, `PG-AMT-${i}`, amount, 10 + i));
    }
    await stores.ledger.caughtUp();
  });
  afterAll(async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('summary: each day\'s payments, net and payments by method, across lines and columns', async () => {
    const shown = await cli('summary', '--from', '2026-11-22', '--to', '2026-11-22');
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toContain('*');
    for (const amount of amounts) {
      expect(shown.stdout).toContain(`1 × ${formatMoney(amount, 'KRW')}`);
      expect(shown.stdout).toMatch(new RegExp(`card: 1 × ${formatMoney(amount, 'KRW').replace(/[$]/g, '\\$')}\\n`));
    }
  });

  test('orders list and orders show', async () => {
    const listed = await cli('orders', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain('*');
    for (const amount of amounts) expect(listed.stdout).toMatch(new RegExp(`${formatMoney(amount, 'KRW')} +₩0 +${formatMoney(amount, 'KRW')}`));
    const shown = await cli('orders', 'show', 'ORD-AMT-0');
    expect(shown.stdout).not.toContain('*');
    expect(shown.stdout).toContain(`approved ${formatMoney(amounts[0]!, 'KRW')}`);
  });
});

describe('the CLI finds a card number within one column and one line', () => {
  test('figures in neighbouring columns or lines never read as one card; a card within one cell always does', () => {
    // 4111111111111111 passes the Luhn check: split over three columns, or three lines, it is three figures.
    const table = formatTable(['A', 'B', 'C'], [['411111', '111111', '1111'], ['4111 1111 1111 1111', '4111  1111  1111  1111', '-']]);
    const shown = maskedOutput(table);
    expect(shown).toMatch(/^411111 +111111 +1111$/m);
    expect(shown).not.toContain('4111 1111 1111 1111');
    expect(shown).toContain('4111 11** **** 1111');
    expect(shown).toContain('4111  11**  ****  1111');
    expect(maskedOutput('411111\n111111\n1111')).toBe('411111\n111111\n1111');
    expect(maskedOutput('pan 4111-1111-1111-1111 ok')).toBe('pan 4111-11**-****-1111 ok');
    expect(maskedOutput('４１１１ １１１１ １１１１ １１１１')).toBe('４１１１ １１** **** １１１１');
  });
});
