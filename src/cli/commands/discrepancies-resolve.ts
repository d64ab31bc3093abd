import type { Command } from 'commander';
import { cliActor } from '../cli-actor';
import { cliConfig, globalOptions, print, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { withLedger } from '../with-ledger';
import { kstTime } from '../../console/format';

/** Closes a discrepancy with a note, audited under the OS user; the order is recomputed. */
export function registerDiscrepanciesResolve(discrepancies: Command, io: CliIo): void {
  discrepancies
    .command('resolve')
    .description('resolve a discrepancy with a note saying what was done (audited); its order is recomputed')
    .argument('<id>')
    .requiredOption('--note <text>', 'what was done about it')
    .action(async (id: string, options: { note: string }, command: Command) => {
      const global = globalOptions(command);
      const note = options.note.trim();
      if (note === '') throw new CliFailure('--note must say what was done', EXIT.usage);
      const actor = cliActor(io);
      const result = await withLedger(cliConfig(io, global), (ledger) =>
        ledger.resolveDiscrepancy(id, { by: actor, note, at: new Date().toISOString(), actor }));
      if (result.outcome === 'not_found') throw new CliFailure(`no discrepancy ${JSON.stringify(id)}; see "discrepancies list"`, EXIT.notFound);
      const resolved = result.record.discrepancies.find((d) => d.id === id);
      print(io, global, result.record, () =>
        result.outcome === 'already_resolved'
          ? `${id} was already resolved by ${resolved?.resolvedBy} at ${kstTime(resolved?.resolvedAt)}; order ${result.record.shopOrderNo} is ${result.record.status}`
          : `resolved ${id}; order ${result.record.shopOrderNo} is now ${result.record.status}`);
    });
}
