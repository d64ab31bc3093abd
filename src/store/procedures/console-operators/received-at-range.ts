import type { Param } from '../procedure';

/**
 * A range of inbox.received_at (either bound optional), written so the planner answers it from the
 * inbox's two partial indexes on received_at (migration 008), which split the rows between them:
 * inbox_unpruned holds what retention has not pruned yet, inbox_pruned the rest. A bare
 * `received_at >= ?` fits neither index's condition and reads the whole table. `alias` is the
 * inbox's alias in the statement (`i`), or '' when the inbox is the only table.
 */
export function receivedAtRange(alias: string, from?: string, to?: string): { condition: string; params: Param[] } | null {
  const column = alias ? `${alias}.` : '';
  const bounds: string[] = [];
  const values: Param[] = [];
  if (from !== undefined) {
    bounds.push(`${column}received_at >= ?`);
    values.push(from);
  }
  if (to !== undefined) {
    bounds.push(`${column}received_at < ?`);
    values.push(to);
  }
  if (bounds.length === 0) return null;
  const range = bounds.join(' AND ');
  return {
    condition: `((${column}pruned_at IS NULL AND ${range}) OR (${column}pruned_at IS NOT NULL AND ${range}))`,
    params: [...values, ...values],
  };
}
