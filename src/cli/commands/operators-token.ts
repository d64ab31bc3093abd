import type { Command } from 'commander';
import { newSecret, secretHash } from '../../store/operator-credentials';
import { cliActor } from '../cli-actor';
import { cliConfig, globalOptions, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { operatorName } from '../operator-args';

/** A lost or leaked token: the old one stops working and its sessions end, on every replica. */
export function registerOperatorsToken(operators: Command, io: CliIo): void {
  operators
    .command('token')
    .description("replace an operator's token, print the new one once, and end their sessions")
    .argument('<name>')
    .action(async (nameText: string, _options: unknown, command: Command) => {
      const global = globalOptions(command);
      const name = operatorName(nameText);
      const token = newSecret();
      const at = new Date().toISOString();
      const outcome = await withStore(cliConfig(io, global), async (store) => {
        const rotated = await store.rotateOperatorToken(name, secretHash(token), at);
        if (rotated === 'rotated') await store.recordAudit({ at, actor: cliActor(io), action: 'replaced operator token', subject: name, detail: null });
        return rotated;
      });
      if (outcome === 'unknown') throw new CliFailure(`no operator named ${JSON.stringify(name)}; see "operators list"`, EXIT.notFound);
      if (outcome === 'sso') throw new CliFailure(`${name} signs in through single sign-on and has no token`, EXIT.usage);
      print(io, global, { name, token }, () => `replaced the token of ${name} and ended their sessions; the new token, shown this once:\n${token}`);
    });
}
