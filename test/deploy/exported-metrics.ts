import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetrics } from '../../src/observability/metrics';
import { registerCommandGauges } from '../../src/commands/command-gauges';
import { registerLedgerGauge } from '../../src/ledger/projector/ledger-gauges';
import { spawnReceiver } from '../helpers/spawn-receiver';
import type { Family } from './promql-names';

/**
 * The families the built receiver really serves on its admin /metrics (so a gauge main.ts
 * forgot to register is missing here too), with label names read from the code's own
 * metric definitions, since a labelled family with no samples yet shows no labels.
 */
export async function exportedFamilies(): Promise<Map<string, Family>> {
  const dir = mkdtempSync(join(tmpdir(), 'noti-metrics-'));
  const receiver = await spawnReceiver(dir);
  try {
    const text = await (await fetch(`http://127.0.0.1:${receiver.adminPort}/metrics`)).text();
    const labelNames = new Map<string, string[]>();
    const definitions = createMetrics();
    // The command gauges are registered beside the command store; their definitions are what matter here.
    registerCommandGauges(definitions, { countByState: async () => [], countWorkingSince: async () => 0 }, 0);
    registerLedgerGauge(definitions, { openDiscrepancyCountsByOrigin: async () => [] });
    for (const metric of definitions.registry.getMetricsAsArray()) {
      labelNames.set((metric as unknown as { name: string }).name, [...((metric as unknown as { labelNames?: string[] }).labelNames ?? [])]);
    }
    const families = new Map<string, Family>();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      families.set(name!, { type: type!, labels: labelNames.get(name!) ?? [] });
    }
    return families;
  } finally {
    receiver.child.kill('SIGTERM');
    await receiver.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
