import type { Command } from 'commander';
import { cliActor } from '../cli-actor';
import { cliConfig, globalOptions, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { operatorName } from '../operator-args';

/** Takes effect at once on every replica: the operator's next console request finds no session. */
export function registerOperatorsRemove(operators: Command, io: CliIo): void {
  operators
    .command('remove')
    .description('remove an operator and end their console sessions at once')
    .argument('<name>')
    .action(async (nameText: string, _options: unknown, command: Command) => {
      const global = globalOptions(command);
      const name = operatorName(nameText);
      const result = await withStore(cliConfig(io, global), async (store) => {
        const removed = await store.removeOperator(name);
        if (removed.removed) {
          await store.recordAudit({ at: new Date().toISOString(), actor: cliActor(io), action: 'removed operator', subject: name, detail: `${removed.sessionsEnded} session(s) ended` });
        }
        return removed;
      });
      if (!result.removed) throw new CliFailure(`no operator named ${JSON.stringify(name)}; see "operators list"`, EXIT.notFound);
      print(io, global, { removed: name, sessionsEnded: result.sessionsEnded }, () => `removed ${name}; ended ${result.sessionsEnded} console session(s)`);
    });
}
