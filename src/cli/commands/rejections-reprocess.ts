import type { Command } from 'commander';
import { createLogger } from '../../observability/logger';
import { cliConfig, globalOptions, numericId, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { reprocessRejection } from '../../operator/reprocess-rejection';

export function registerRejectionsReprocess(rejections: Command, io: CliIo): void {
  rejections
    .command('reprocess')
    .description('validate a rejected body again with the current MALL_IDS (the stored source stays admitted); store it if it passes')
    .argument('<id>', 'rejection id', numericId('rejection'))
    .action(async (id: number, _options: unknown, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const result = await withStore(config, async (store) => {
        const rejection = await store.getRejection(id);
        if (!rejection) throw new CliFailure(`no rejection ${id}; find ids with "rejections list"`, EXIT.notFound);
        return reprocessRejection(rejection, { store, config, logger: createLogger({ level: 'error', silent: true }) });
      });
      if (!result.ok) {
        print(io, global, { rejection: id, ...result }, () =>
          [`rejection ${id} still fails validation:`, ...result.reasons.map((reason) => `  - ${reason}`)].join('\n'),
        );
        throw new CliFailure('', EXIT.notFound);
      }
      print(io, global, { rejection: id, ...result }, () => {
        if (result.outcome === 'already-reprocessed') return `rejection ${id} was already reprocessed as ${result.eventId}`;
        if (result.outcome === 'accepted') return `rejection ${id} accepted as ${result.eventId}; the relay forwards it`;
        return `rejection ${id} matches stored event ${result.eventId} (${result.outcome}); nothing new to forward`;
      });
    });
}
