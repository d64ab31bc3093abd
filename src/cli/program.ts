import { Command, CommanderError } from 'commander';
import type { CliIo } from './cli-context';
import { registerCommandsList } from './commands/commands-list';
import { registerCommandsRetry } from './commands/commands-retry';
import { registerCommandsShow } from './commands/commands-show';
import { registerConflictsList } from './commands/conflicts-list';
import { registerConflictsShow } from './commands/conflicts-show';
import { registerDiscrepanciesList } from './commands/discrepancies-list';
import { registerDiscrepanciesResolve } from './commands/discrepancies-resolve';
import { registerLedgerBackfill } from './commands/ledger-backfill';
import { registerLedgerRebuild } from './commands/ledger-rebuild';
import { registerOrdersList } from './commands/orders-list';
import { registerOrdersShow } from './commands/orders-show';
import { registerEventsList } from './commands/events-list';
import { registerEventsRequeue } from './commands/events-requeue';
import { registerEventsShow } from './commands/events-show';
import { registerOperatorsAdd } from './commands/operators-add';
import { registerOperatorsList } from './commands/operators-list';
import { registerOperatorsRemove } from './commands/operators-remove';
import { registerOperatorsToken } from './commands/operators-token';
import { registerRejectionsList } from './commands/rejections-list';
import { registerRejectionsReprocess } from './commands/rejections-reprocess';
import { registerRejectionsShow } from './commands/rejections-show';
import { registerRetentionPrune } from './commands/retention-prune';
import { sandboxCommand, untilSignal } from '../sandbox/sandbox-command';
import { registerStatus } from './commands/status';
import { registerSummary } from './commands/summary';
import { announceStore } from './receiver-store-check';
import { CliFailure, EXIT } from '../exit-codes';
import { maskedOutput } from './masked-output';
import { terminalText } from './terminal-text';
import { registerAlertsTest } from './commands/alerts-test';
import { registerReconcileImport } from './commands/reconcile-import';
import { registerReconcileList } from './commands/reconcile-list';
import { readListOffLoop } from '../reconciliation/import/read-off-loop';

/** Exit code for an error no command anticipated: a bug, never confused with the documented codes. */
const EXIT_INTERNAL = 70;

export function buildProgram(io: CliIo): Command {
  const program = new Command('noti-receiver')
    .description("Inspect and repair what payment-noti-receiver holds: status, events, rejections, conflicts, gateway commands, retention, the payment ledger")
    .option('--database-url <url>', 'sqlite:PATH or postgres://… (default: DATABASE_URL)')
    .option('--json', 'machine-readable output: the data as stored, but card numbers and card secrets masked')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    // Every command that reads the store first names it, and warns when the receiver serves another
    // (status shows both in its own lines; the sandbox and the alerts test read no store).
    .hook('preAction', async (_program, action) => {
      const path = commandPath(action);
      if (action.name() !== 'status' && !path.includes('sandbox') && !path.includes('alerts')) await announceStore(io, action);
    });
  // Settings above are inherited by every subcommand made with .command() below.
  const events = program.command('events').description('stored notifications and their relay state');
  registerEventsList(events, io);
  registerEventsShow(events, io);
  registerEventsRequeue(events, io);
  const rejections = program.command('rejections').description('bodies refused with 5001/413/415');
  registerRejectionsList(rejections, io);
  registerRejectionsShow(rejections, io);
  registerRejectionsReprocess(rejections, io);
  const conflicts = program.command('conflicts').description('redeliveries that differed from the stored body');
  registerConflictsList(conflicts, io);
  registerConflictsShow(conflicts, io);
  const commands = program.command('commands').description('calls to the gateway (internal API): state and every attempt');
  registerCommandsList(commands, io);
  registerCommandsShow(commands, io);
  registerCommandsRetry(commands, io);
  const retention = program.command('retention').description('the RETENTION_DAYS policy the receiver applies hourly');
  registerRetentionPrune(retention, io);
  const operators = program.command('operators').description('who may use the console, with which role');
  registerOperatorsAdd(operators, io);
  registerOperatorsList(operators, io);
  registerOperatorsToken(operators, io);
  registerOperatorsRemove(operators, io);
  const orders = program.command('orders').description("the payment ledger's orders: the newest ones, or one order's record");
  registerOrdersList(orders, io);
  registerOrdersShow(orders, io);
  const discrepancies = program.command('discrepancies').description('payments that differ from what the shop expected, double payments, failed refunds');
  registerDiscrepanciesList(discrepancies, io);
  registerDiscrepanciesResolve(discrepancies, io);
  const ledger = program.command('ledger').description('the payment ledger as a whole');
  registerLedgerRebuild(ledger, io);
  registerLedgerBackfill(ledger, io);
  const reconcile = program.command('reconcile').description("the gateway portal's transaction lists, matched with the ledger");
  registerReconcileImport(reconcile, io, readListOffLoop);
  registerReconcileList(reconcile, io);
  const alerts = program.command('alerts').description('alerts to people: the webhook and e-mail channels');
  registerAlertsTest(alerts, io);
  program.addCommand(sandboxCommand({ env: io.env, stdout: io.stdout, stopped: untilSignal }));
  registerStatus(program, io);
  registerSummary(program, io);
  return program;
}

/** The names from the program down to `command`: `['noti-receiver', 'events', 'show']`. */
function commandPath(command: Command): string[] {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names;
}

/**
 * The one place output leaves the CLI: whatever a command, commander's usage errors, the help or
 * a failure writes, card numbers are masked and control characters escaped before a terminal
 * (or a pipe) gets it.
 */
function safeIo(io: CliIo): CliIo {
  return {
    ...io,
    stdout: (text) => io.stdout(terminalText(maskedOutput(text))),
    stderr: (text) => io.stderr(terminalText(maskedOutput(text))),
  };
}

/** Runs one CLI invocation and resolves to its exit code; never calls process.exit itself. */
export async function runCli(args: string[], rawIo: CliIo): Promise<number> {
  const io = safeIo(rawIo);
  try {
    await buildProgram(io).parseAsync(args, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliFailure) {
      if (error.message) io.stderr(`noti-receiver: ${error.message}\n`);
      return error.code;
    }
    // Commander has already printed its message (or the help) through configureOutput.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    io.stderr(`noti-receiver: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
    return EXIT_INTERNAL;
  }
}
