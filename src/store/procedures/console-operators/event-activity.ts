import type { ActivityBucket } from '../../store';
import { all, type Procedure } from '../procedure';
import { receivedAtRange } from './received-at-range';

/**
 * The gateway's notifications per UTC hour and type since `since`; the service's own inbox entries
 * (the ledger's events, a command's final state) are not notifications and would swamp the chart. received_at is ISO text in both databases,
 * so its first 13 characters ("2026-11-21T03") are the hour without any dialect's date functions.
 */
export function* eventActivity(since: string): Procedure<ActivityBucket[]> {
  const dates = receivedAtRange('', since)!;
  const rows = yield* all<{ hour: string; type: string; count: number | string }>(
    `SELECT substr(received_at, 1, 13) AS hour, event_type AS type, count(*) AS count
     FROM inbox WHERE ${dates.condition} AND origin = 'gateway' GROUP BY substr(received_at, 1, 13), event_type ORDER BY hour, type`,
    ...dates.params,
  );
  return rows.map((row) => ({ hour: row.hour, type: row.type, count: Number(row.count) }));
}
