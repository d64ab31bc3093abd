import type { NotiType } from '../notifications/event-types';

const MAX_PROBLEMS = 20;

/**
 * Problems as an operator should read them: one line per distinct problem with how many
 * deliveries it hit, so sixteen refusals for one reason are one line, not sixteen.
 */
export class ProblemLog {
  private readonly problems = new Map<string, { count: number; events: Set<NotiType> }>();

  add(notiType: NotiType, problem: string): void {
    const seen = this.problems.get(problem);
    if (seen) {
      seen.count += 1;
      seen.events.add(notiType);
    } else if (this.problems.size < MAX_PROBLEMS) {
      this.problems.set(problem, { count: 1, events: new Set([notiType]) });
    }
  }

  lines(): string[] {
    return [...this.problems].map(([problem, { count, events }]) => {
      const where = `event${events.size === 1 ? '' : 's'} ${[...events].sort().join(', ')}`;
      return count === 1 ? `${where}: ${problem}` : `${where}: ${problem} (${count} deliveries)`;
    });
  }

  /** What to change, for the refusals whose cause is known; each said once. */
  hints(): string[] {
    const all = [...this.problems.keys()].join('\n');
    const hints: string[] = [];
    if (/HTTP 403/.test(all)) {
      hints.push(
        "the receiver refused the simulator's source address (HTTP 403): start it with EXTRA_ALLOWED_IPS=<this machine's address> " +
          '(127.0.0.1 locally), or with TRUST_PROXY=<that address> and pass --forwarded-for 61.33.205.151',
      );
    }
    if (/mallId|MALL_IDS/.test(all)) hints.push('the receiver only accepts the mall ids in its MALL_IDS: add the simulator\'s (T0001234) or leave MALL_IDS empty');
    if (/network error/.test(all)) hints.push('nothing answered at --url: is the receiver running, and is the port and NOTIFY_PATH right?');
    return hints;
  }
}
