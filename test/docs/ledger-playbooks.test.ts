import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DISCREPANCY_KINDS } from '../../src/ledger/fold/order-record';
import { REPO } from './doc-blocks';

const ledgerDoc = readFileSync(join(REPO, 'docs', 'ledger.md'), 'utf8');
/** The kinds the ledger opens, and those the contract adds (refusals, conflicting redeliveries, unknown refund amounts). */
const KINDS = [...new Set([...DISCREPANCY_KINDS, 'conflicting_notification', 'refused_notification', 'unknown_refund_amount'])];

/** The playbook of one kind: the text under its `#### <kind>` heading, up to the next heading. */
function playbook(kind: string): string | null {
  const match = new RegExp(`^#### ${kind}\\n([\\s\\S]*?)(?=^#{1,4} )`, 'm').exec(ledgerDoc);
  return match ? match[1]! : null;
}

describe('what to do when a discrepancy opens (docs/ledger.md)', () => {
  // Was "Means / Check / Settle": what to check and how to settle are now steps in the console and in
  // the merchant portal, for operations people, with the API and CLI apart for engineers.
  it.each(KINDS)('%s has its own heading (its anchor is the kind) saying what it means, what to do in the console and in the merchant portal, and apart what engineers can do', (kind) => {
    const text = playbook(kind);
    expect(text).not.toBeNull();
    expect(text).toMatch(/\*\*Means\*\*: \S/);
    expect(text).toMatch(/\*\*In the console\*\*:\n {2}1\. \S/);
    expect(text).toMatch(/\*\*In the merchant portal\*\* \(a payment is found by its `pgCno`\):\n {2}1\. \S/);
    expect(text).toMatch(/\*\*For engineers\*\*/);
    // Engineers' remedies stay in their part: nothing before it sends an operator to the API or a terminal.
    expect(text!.slice(0, text!.indexOf('**For engineers**'))).not.toMatch(/noti-receiver |\/v1\/|POST |PUT /);
  });

  it("the discrepancy alert links the kind's playbook in the docs and in the console", () => {
    const rules = (parse(readFileSync(join(REPO, 'deploy', 'alerts.yml'), 'utf8')) as { groups: Array<{ rules: Array<{ alert?: string; annotations?: Record<string, string> }> }> })
      .groups.flatMap((group) => group.rules);
    const alert = rules.find((rule) => rule.alert === 'NotiReceiverLedgerDiscrepancy');
    expect(alert?.annotations).toMatchObject({
      runbook_url: 'docs/ledger.md#{{ $labels.kind }}',
      playbook: expect.stringContaining('/console/playbooks#{{ $labels.kind }}'),
    });
  });
});
