import { run, type Procedure } from '../procedure';

/** A real commit on the ack path's writer: readiness means "an ack could be committed now". */
export function* probeWrite(at: string): Procedure<void> {
  yield* run(
    `INSERT INTO store_probe (id, probed_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET probed_at = excluded.probed_at`,
    at,
  );
}
