import type { Command } from 'commander';
import { cliConfig, globalOptions, print, withStore, type CliIo } from '../cli-context';
import { formatTable } from '../table';

export function registerOperatorsList(operators: Command, io: CliIo): void {
  operators
    .command('list')
    .description('console operators by name: role, how they sign in, whether they may cancel payments, when their token was set')
    .action(async (_options: unknown, command: Command) => {
      const global = globalOptions(command);
      const rows = await withStore(cliConfig(io, global), (store) => store.listOperators());
      print(io, global, rows, () =>
        rows.length === 0
          ? 'no operators yet (the bootstrap admin signs in with ADMIN_TOKEN); add one with "operators add <name> --role viewer|operator|admin"'
          : formatTable(
              ['NAME', 'ROLE', 'SIGN-IN', 'CAN CANCEL', 'ADDED', 'TOKEN SET'],
              rows.map((r) => [r.name, r.role, r.sso ? 'sso' : 'token', r.canCancel || r.role === 'admin' ? 'yes' : 'no', r.createdAt, r.tokenSetAt]),
            ),
      );
    });
}
