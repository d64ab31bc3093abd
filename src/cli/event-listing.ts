import type { EventRow } from '../store/store';

/**
 * An event as the CLI prints it: its id under `id`, the name the normalized event, the queue's
 * message and the console's pages give it, so a script can take the id from one and look it up
 * in another. (`eventId` stays the name of a reference to an event, as in a conflict or a
 * reprocessed rejection.)
 */
export type EventListing<T extends EventRow = EventRow> = Omit<T, 'eventId'> & { id: string };

export function eventListing<T extends EventRow>(row: T): EventListing<T> {
  const { eventId, ...rest } = row;
  return { id: eventId, ...rest };
}
