import type { Command } from 'commander';
import { runRetention } from '../../retention/run-retention';
import { cliConfig, globalOptions, positiveInt, print, withStore, type CliIo } from '../cli-context';
import { kstTime } from '../../console/format';

/**
 * The receiver's own hourly prune, run now: the same store procedure and cutoff arithmetic,
 * so a cron job or an operator before a backup gets exactly what the service would do.
 */
export function registerRetentionPrune(retention: Command, io: CliIo): void {
  retention
    .command('prune')
    .description('remove raw bodies and event data of delivered events, rejections and conflicts older than RETENTION_DAYS (dedup keys stay)')
    .option('--days <n>', 'override RETENTION_DAYS for this run', positiveInt('--days'))
    .action(async (options: { days?: number }, command: Command) => {
      const global = globalOptions(command);
      const config = cliConfig(io, global);
      const days = options.days ?? config.RETENTION_DAYS;
      const run = await withStore(config, (store) => runRetention(store, { days, now: new Date() }));
      print(io, global, { retentionDays: days, ...run }, () =>
        `pruned ${run.events} event(s), ${run.rejections} rejection(s) and ${run.conflicts} conflict(s) received before ${kstTime(run.cutoff)} (RETENTION_DAYS=${days})`,
      );
    });
}
