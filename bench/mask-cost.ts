import { maskCardText } from '../src/observability/card-numbers';
import { maskFreeText, maskSensitive } from '../src/observability/mask';

/**
 * What masking costs per KiB of input, by the kind of text and its length: a cost that grows
 * with the length is a masking that is not linear (one stored field then stalls every listener of
 * the process). Each figure is the median of MASK_COST_ROUNDS runs, each run masking the text
 * once through the three entry points the pages, the CLI and the logs use. A run slower than
 * MASK_COST_BUDGET_S seconds stops that kind's longer texts (the quadratic scan takes minutes).
 */
const ROUNDS = Number(process.env.MASK_COST_ROUNDS ?? 7);
const BUDGET_MS = Number(process.env.MASK_COST_BUDGET_S ?? 10) * 1000;
const SIZES_KIB = (process.env.MASK_COST_SIZES ?? '1,4,16,40,60').split(',').map(Number);

const repeatTo = (unit: string, kib: number) => unit.repeat(Math.ceil((kib * 1024) / unit.length)).slice(0, kib * 1024);

/** The texts that were slow, and ordinary ones: each repeated to the length measured. */
const KINDS: Record<string, string> = {
  'a4111111111111111 (issue 35)': 'a4111111111111111',
  'cards, spaced': '4111 1111 1111 1111 ',
  'digit groups, dotted': '4163.2332.1948.963',
  'digits and dashes': '1234-5678-',
  'full-width digits': '４３３１　',
  'Korean text with a phone': '홍길동 고객님 010-1234-5678 정상처리 ',
  'phones in full-width digits': '연락처 ０１０－１２３４－５６７８ ',
  'ordinary JSON': '{"resCd":"0000","resMsg":"정상처리","amount":"12000","pgCno":"26112112000100000001"},',
};

function medianMs(text: string): number {
  const runs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    maskSensitive({ shopValue1: text });
    maskFreeText(text);
    maskCardText(text);
    runs.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (runs.at(-1)! > BUDGET_MS) break;
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)]!;
}

function main(): void {
  const header = ['text', ...SIZES_KIB.map((kib) => `${kib} KiB`)];
  const rows: string[][] = [];
  for (const [kind, unit] of Object.entries(KINDS)) {
    const row = [kind];
    let overBudget = false;
    for (const kib of SIZES_KIB) {
      if (overBudget) {
        row.push('(skipped)');
        continue;
      }
      const ms = medianMs(repeatTo(unit, kib));
      overBudget = ms > BUDGET_MS;
      row.push(`${((ms * 1000) / kib).toFixed(1)}`);
    }
    rows.push(row);
    console.error(`${kind}: done`);
  }
  console.log('µs per KiB (median), for maskSensitive + maskFreeText + maskCardText of the same text\n');
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

main();
