import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { exportedFamilies } from './exported-metrics';
import { problemsIn, type Family } from './promql-names';

const DEPLOY = join(__dirname, '..', '..', 'deploy');

interface Rule { alert?: string; record?: string; expr: string; labels?: Record<string, string>; annotations?: Record<string, string> }
interface Panel { id: number; type: string; title: string; datasource?: { uid?: string }; gridPos: { x: number; y: number; w: number; h: number }; targets?: Array<{ expr: string; refId: string }>; panels?: Panel[] }

const rules = (parse(readFileSync(join(DEPLOY, 'alerts.yml'), 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana-dashboard.json'), 'utf8')) as {
  uid: string; title: string; schemaVersion: number; panels: Panel[]; templating: { list: Array<{ name: string }> };
};
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
const queryPanels = panels.filter((panel) => panel.type !== 'row');

let families: Map<string, Family>;
beforeAll(async () => {
  families = await exportedFamilies();
});

describe('deploy/alerts.yml', () => {
  it('has an alert for each situation the README names', () => {
    const names = rules.map((rule) => rule.alert);
    expect(names).toEqual(expect.arrayContaining([
      'NotiReceiverBacklogOld', 'NotiReceiverDeadEvents', 'NotiReceiverRejections', 'NotiReceiverStoreDown', 'NotiReceiverRelayNotHeld',
    ]));
    for (const rule of rules) expect({ alert: rule.alert, severity: rule.labels?.severity, summary: typeof rule.annotations?.summary }).toEqual({ alert: rule.alert, severity: expect.any(String), summary: 'string' });
  });

  it.each(rules.map((rule) => [rule.alert, rule.expr]))('%s asks only for metrics and labels the receiver exports', (_name, expr) => {
    expect(problemsIn(expr!, families)).toEqual([]);
  });

  const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
  const withPromtool = promtool.error ? it.skip : it;
  if (promtool.error) console.warn("skipping promtool checks: promtool is not installed (Debian's prometheus package; .ci/run installs it)");

  withPromtool('passes promtool check rules', () => {
    const run = spawnSync('promtool', ['check', 'rules', 'alerts.yml'], { cwd: DEPLOY, encoding: 'utf8' });
    expect({ status: run.status, out: run.stdout + run.stderr }).toEqual({ status: 0, out: expect.stringContaining('SUCCESS') });
  });

  withPromtool('fires in the situations of deploy/alerts.test.yml and stays quiet otherwise (promtool test rules)', () => {
    const run = spawnSync('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: DEPLOY, encoding: 'utf8' });
    expect({ status: run.status, out: run.stdout + run.stderr }).toEqual({ status: 0, out: expect.stringContaining('SUCCESS') });
  });
});

describe('deploy/grafana-dashboard.json', () => {
  it('is an importable dashboard: uid, title, a datasource input, unique panel ids, panels inside the 24-column grid', () => {
    expect(dashboard).toMatchObject({ uid: 'payment-noti-receiver', title: expect.any(String), schemaVersion: expect.any(Number) });
    const ids = panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of panels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      expect(panel.gridPos.h).toBeGreaterThan(0);
    }
    for (const panel of queryPanels) {
      expect({ title: panel.title, datasource: panel.datasource?.uid, targets: panel.targets?.length ?? 0 }).toEqual({
        title: panel.title, datasource: '${datasource}', targets: expect.any(Number),
      });
      expect(panel.targets!.length).toBeGreaterThan(0);
    }
  });

  it('never overlaps two panels', () => {
    const cells = new Set<string>();
    for (const panel of panels) {
      for (let x = panel.gridPos.x; x < panel.gridPos.x + panel.gridPos.w; x += 1) {
        for (let y = panel.gridPos.y; y < panel.gridPos.y + panel.gridPos.h; y += 1) {
          expect(cells.has(`${x},${y}`) ? `${panel.title} overlaps at ${x},${y}` : null).toBeNull();
          cells.add(`${x},${y}`);
        }
      }
    }
  });

  it('uses only the template variables it defines', () => {
    const defined = new Set(dashboard.templating.list.map((variable) => variable.name));
    const used = new Set([...JSON.stringify(dashboard.panels).matchAll(/\$\{?([A-Za-z_]+)/g)].map((match) => match[1]!).filter((name) => !name.startsWith('__')));
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
  });

  it('covers acks by outcome, ack and commit latency, backlog and age, publishes, rejections and conflicts', () => {
    const exprs = queryPanels.flatMap((panel) => panel.targets!.map((target) => target.expr)).join('\n');
    for (const metric of [
      'noti_receiver_notifications_total', 'noti_receiver_ack_latency_seconds_bucket', 'noti_receiver_store_commit_seconds_bucket',
      'noti_receiver_outbox_pending', 'noti_receiver_outbox_oldest_pending_age_seconds', 'noti_receiver_outbox_dead',
      'noti_receiver_publishes_total', 'noti_receiver_store_up', 'noti_receiver_relay_lock_held',
    ]) expect(exprs).toContain(metric);
    expect(exprs).toMatch(/outcome=~"rejected\|conflict"/);
  });

  it.each(queryPanels.flatMap((panel) => panel.targets!.map((target) => [`${panel.title} ${target.refId}`, target.expr])))(
    'panel %s queries only metrics and labels the receiver exports',
    (_name, expr) => {
      expect(problemsIn(expr, families)).toEqual([]);
    },
  );
});
