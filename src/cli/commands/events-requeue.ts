import type { Command } from 'commander';
import { cliConfig, globalOptions, print, withStore, type CliIo } from '../cli-context';
import { cliActor } from '../cli-actor';
import { CliFailure, EXIT } from '../../exit-codes';

/**
 * Sends an event to the queue again from its first attempt. A running receiver's relay
 * picks it up on its next poll (about a second): it is not woken across processes.
 */
export function registerEventsRequeue(events: Command, io: CliIo): void {
  events
    .command('requeue')
    .description('forward an event again (any status), or every dead event with --dead')
    .argument('[id]', 'event id (evt_…)')
    .option('--dead', 'requeue every event the relay gave up on')
    .action(async (id: string | undefined, options: { dead?: boolean }, command: Command) => {
      const global = globalOptions(command);
      if (id === undefined && !options.dead) {
        throw new CliFailure('say what to requeue: an event id (evt_…, see "events list") or --dead for every dead event', EXIT.usage);
      }
      if (id !== undefined && options.dead) {
        throw new CliFailure('give an event id or --dead, not both', EXIT.usage);
      }
      const config = cliConfig(io, global);
      // Kept in the event's delivery history beside the console's "requeued by".
      const by = { actor: cliActor(io) };
      if (options.dead) {
        const count = await withStore(config, (store) => store.requeueDead(by));
        print(io, global, { requeued: count }, () => `requeued ${count} dead event(s)`);
        return;
      }
      const found = await withStore(config, (store) => store.requeue(id!, by));
      if (!found) throw new CliFailure(`no event ${id}; find ids with "events list"`, EXIT.notFound);
      print(io, global, { requeued: id }, () => `requeued ${id}; the relay forwards it again within about a second`);
    });
}
