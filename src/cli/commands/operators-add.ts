import { Option, type Command } from 'commander';
import { newSecret, secretHash } from '../../store/operator-credentials';
import { lookalikeProblem, shownName } from '../../store/operator-name';
import { OPERATOR_ROLES, type OperatorRole } from '../../store/store';
import { cliActor } from '../cli-actor';
import { cliConfig, globalOptions, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { newOperatorName } from '../operator-args';

/**
 * A named person for the console. The token is printed this once: the database keeps
 * only its SHA-256, so a lost token is replaced (`operators token`), never shown again.
 */
export function registerOperatorsAdd(operators: Command, io: CliIo): void {
  operators
    .command('add')
    .description('add a console operator and print their token once (none with --sso)')
    .argument('<name>', 'who the audit log names, e.g. kim or kim@shop.example (the single sign-on name with --sso)')
    .addOption(new Option('--role <role>', 'viewer reads, operator also acts, admin also manages operators').choices([...OPERATOR_ROLES]).makeOptionMandatory())
    .option('--sso', 'signs in through the proxy named by ADMIN_AUTH_HEADER; no token')
    .option('--can-cancel', "may cancel wallet-b and VAN payments from the console's order page (an admin always may)")
    .action(async (nameText: string, options: { role: OperatorRole; sso?: boolean; canCancel?: boolean }, command: Command) => {
      const global = globalOptions(command);
      const name = newOperatorName(nameText);
      const token = options.sso ? null : newSecret();
      const at = new Date().toISOString();
      const outcome = await withStore(cliConfig(io, global), async (store) => {
        const lookalike = lookalikeProblem(name, (await store.listOperators()).map((operator) => operator.name));
        if (lookalike) throw new CliFailure(`${lookalike}, got ${shownName(name)}`, EXIT.usage);
        const canCancel = options.canCancel === true;
        const added = await store.addOperator({ name, role: options.role, tokenHash: token === null ? null : secretHash(token), createdAt: at, canCancel });
        if (added === 'added') {
          await store.recordAudit({ at, actor: cliActor(io), action: 'added operator', subject: name, detail: `${options.role}${token === null ? ', single sign-on' : ''}${canCancel ? ', may cancel payments' : ''}` });
        }
        return added;
      });
      if (outcome === 'exists') {
        throw new CliFailure(`an operator named ${JSON.stringify(name)} exists; "operators token" replaces their token, "operators remove" removes them`, EXIT.usage);
      }
      print(io, global, { name, role: options.role, sso: token === null, canCancel: options.canCancel === true, token }, () =>
        token === null
          ? `added ${name} (${options.role}); they sign in through the single sign-on proxy (ADMIN_AUTH_HEADER) and have no token`
          : `added ${name} (${options.role}); their token, shown this once (only a hash of it is stored):\n${token}`,
      );
    });
}
