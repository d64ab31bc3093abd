import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { cliActor } from '../cli-actor';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { withLedger } from '../with-ledger';
import { importGatewayList, MAX_IMPORT_BYTES, type ImportSummary, type ListReader } from '../../reconciliation/import/import-list';
import { kstTime } from '../../console/format';
import { GATEWAY_LIST_KINDS } from '../../ledger/fold/gateway-list-conditions';

/** `noti-receiver reconcile import FILE [--mall M]`: the gateway's transaction list, matched with the ledger. */
export function registerReconcileImport(reconcile: Command, io: CliIo, read: ListReader): void {
  reconcile
    .command('import')
    .description("import the gateway portal's transaction list (.xlsx or CSV) and match it with the ledger (audited); the same file again changes nothing")
    .argument('<file>')
    .option('--mall <mallId>', 'the mall the list is of (default: the one mall of MALL_IDS)')
    .action(async (file: string, options: { mall?: string }, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const mallId = options.mall ?? (config.MALL_IDS.length === 1 ? config.MALL_IDS[0]! : null);
      if (mallId === null) throw new CliFailure('name the mall the list is of with --mall <mallId>', EXIT.usage);
      if (config.MALL_IDS.length > 0 && !config.MALL_IDS.includes(mallId)) throw new CliFailure(`mall ${mallId} is not one of MALL_IDS (${config.MALL_IDS.join(', ')})`, EXIT.usage);
      const size = await stat(file).then((s) => s.size, () => null);
      if (size === null) throw new CliFailure(`no file ${file}`, EXIT.notFound);
      // Checked before a byte is read: a file the import would refuse is never loaded whole.
      if (size > MAX_IMPORT_BYTES) throw new CliFailure(`${file} is ${size} bytes; at most ${MAX_IMPORT_BYTES} are imported (too_large); nothing was imported`, EXIT.fileRefused);
      const bytes = await readFile(file);
      const actor = cliActor(io);
      const outcome = await withLedger(config, (ledger, stores) =>
        importGatewayList({ reconciliation: stores.reconciliation, ledger, read }, { bytes, fileName: basename(file), mallId, actor, at: new Date().toISOString() }));
      if (outcome.outcome === 'refused') {
        if (global.json) print(io, global, outcome, () => '');
        const reasons = outcome.problems.map((p) => `  ${p.line === null ? '' : `line ${p.line}: `}${p.column === null ? '' : `${p.column}: `}${p.message} (${p.code})`);
        throw new CliFailure(`${file} was refused; nothing was imported:\n${reasons.join('\n')}`, EXIT.fileRefused);
      }
      print(io, global, { ...outcome.summary, alreadyImported: outcome.outcome === 'already_imported' }, () =>
        outcome.outcome === 'already_imported' ? alreadyText(outcome.summary) : summaryText(outcome.summary));
    });
}

function alreadyText(summary: ImportSummary): string {
  const i = summary.import;
  return `already imported as ${i.id} (${i.fileName}) by ${i.importedBy} at ${kstTime(i.importedAt)}: nothing changed\n${differencesText(summary)}`;
}

function summaryText(summary: ImportSummary): string {
  const i = summary.import;
  return [
    `imported ${i.id} (${i.fileName}) for mall ${i.mallId}`,
    `days covered: ${i.firstDay === i.lastDay ? i.firstDay : `${i.firstDay} to ${i.lastDay}`} (KST)`,
    `rows: ${i.rowCount} (${summary.rows.payments} payment(s), ${summary.rows.cancels} cancel(s)); orders matched: ${i.orderCount}${summary.unplaced > 0 ? `; ${summary.unplaced} row(s) name no known order` : ''}`,
    differencesText(summary),
  ].join('\n');
}

function differencesText(summary: ImportSummary): string {
  if (summary.differences === null) return 'differences: the ledger is still matching; see "noti-receiver reconcile list --day <day>"';
  // In the kinds' own order, whatever order the ledger opened them in: the same import prints the same lines.
  const rank = (kind: string) => (GATEWAY_LIST_KINDS as readonly string[]).indexOf(kind);
  const found = Object.entries(summary.differences).filter(([, n]) => n > 0).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  return found.length === 0 ? 'differences: none' : `differences: ${found.map(([kind, n]) => `${kind} ${n}`).join(', ')} (see "noti-receiver discrepancies list")`;
}
