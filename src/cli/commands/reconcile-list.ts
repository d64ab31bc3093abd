import type { Command } from 'commander';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { withLedger } from '../with-ledger';
import { moneyText } from '../order-money';
import { formatTable } from '../table';
import { kstTime } from '../../console/format';
import type { ReconciliationDay, StoredImport, Tally } from '../../reconciliation/import/reconciliation-store';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** What a row the file names no order of shows in the ORDER column. */
const NO_ORDER = '(none in the file)';

/** `noti-receiver reconcile list [--day D]`: the imported lists, or one day's match with the ledger. */
export function registerReconcileList(reconcile: Command, io: CliIo): void {
  reconcile
    .command('list')
    .description("the gateway's lists imported (newest first), or with --day one KST day's match: files, rows, matched, differences")
    .option('--day <yyyy-mm-dd>', 'one day (in Korea)')
    .option('--mall <mallId>', "one mall's (default: every mall)")
    .action(async (options: { day?: string; mall?: string }, command: Command) => {
      if (options.day !== undefined && (!DAY.test(options.day) || Number.isNaN(Date.parse(options.day)))) throw new CliFailure(`--day must be a calendar day, YYYY-MM-DD (got ${options.day})`, EXIT.usage);
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const mallId = options.mall ?? null;
      if (options.day === undefined) {
        const imports = await withLedger(config, (_ledger, stores) => stores.reconciliation.listImports({ day: null, mallId, limit: 50 }), { projector: false });
        return print(io, global, { imports }, () => importsText(imports));
      }
      const day = options.day;
      const days = await withLedger(config, async (ledger, stores) => {
        await ledger.caughtUp().catch(() => undefined);
        return stores.reconciliation.reconciliationDay(day, mallId);
      });
      print(io, global, { days }, () => (days.length === 0 ? `no imported list covers ${day}` : days.map(dayText).join('\n\n')));
    });
}

function importsText(imports: readonly StoredImport[]): string {
  if (imports.length === 0) return 'no list imported yet; see "noti-receiver reconcile import --help"';
  return formatTable(
    ['ID', 'MALL', 'DAYS', 'ROWS', 'ORDERS', 'FILE', 'IMPORTED', 'BY'],
    imports.map((i) => [i.id, i.mallId, i.firstDay === i.lastDay ? i.firstDay : `${i.firstDay}..${i.lastDay}`, i.rowCount, i.orderCount, i.fileName, kstTime(i.importedAt), i.importedBy]),
  );
}

const tally = (t: Tally) => `${t.count} × ${moneyText(t.amount, 'KRW')}`;

function dayText(d: ReconciliationDay): string {
  const open = Object.entries(d.differences.open);
  const lines = [
    `${d.day}  mall ${d.mallId}`,
    ...d.files.map((f) => `  ${f.governing ? 'counts' : 'superseded'}  ${f.id}  ${f.fileName}  ${f.rowsOfDay} row(s) of the day  imported ${kstTime(f.importedAt)} by ${f.importedBy}`),
    `  listed   payments ${tally(d.rows.payments)}, cancels ${tally(d.rows.cancels)}`,
    `  matched  payments ${tally(d.matched.payments)}, cancels ${tally(d.matched.cancels)}`,
    `  differences open: ${open.length === 0 ? 'none' : open.map(([kind, n]) => `${kind} ${n}`).join(', ')}`,
  ];
  const listed = d.differences.listed.filter((x) => x.resolvedAt === null);
  if (listed.length > 0 || d.unplaced.length > 0) {
    lines.push(formatTable(['ID', 'KIND', 'ORDER', 'PGCNO', 'CANCELPGCNO', 'LISTED', 'NOTIFIED'], [
      ...listed.map((x) => [
        x.id, x.kind, x.shopOrderNo, String(x.details.pgCno ?? ''), String(x.details.cancelPgCno ?? ''),
        // A statement's row is listed by its gross (a cancel's negative).
        typeof x.details.listedAmount === 'number' ? moneyText(x.details.listedAmount, 'KRW') : typeof x.details.gross === 'number' ? moneyText(x.details.gross, 'KRW') : '-',
        typeof x.details.notifiedAmount === 'number' ? moneyText(x.details.notifiedAmount, 'KRW') : typeof x.details.amount === 'number' ? moneyText(x.details.amount, 'KRW') : '-',
      ]),
      // A row in no order has no discrepancy id: the file's row number says which it is.
      ...d.unplaced.map((u) => [`row ${u.line}`, 'notification_missing', NO_ORDER, u.pgCno, u.cancelPgCno ?? '', moneyText(u.amount, 'KRW'), '-']),
    ]));
  }
  if (d.unplaced.length > 0) lines.push(`  no order number in the file (파일에 주문번호 없음): row(s) whose pgCno no notification named, at ${d.unplaced.map((u) => `row ${u.line} ${kstTime(u.at)}`).join(', ')}; placed in their order when the resend arrives`);
  if (listed.some((x) => x.kind === 'notification_missing') || d.unplaced.length > 0) lines.push('  a missing notification is sent again from the portal: transaction management → notification inquiry (거래관리 → 노티조회)');
  return lines.join('\n');
}
