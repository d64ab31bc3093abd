import { readdirSync, readFileSync } from 'node:fs';

/** Nanoseconds a task (process or thread) has run on a CPU, from its schedstat; 0 once it ended. */
export function taskCpuNs(path: string): number {
  try {
    return Number(readFileSync(`${path}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

const ownThreads = () => readdirSync('/proc/self/task').map(Number);

/**
 * This process's CPU split by thread: its main thread (where the acks' and the projector's
 * JavaScript runs), the threads a store started (`since`: the threads alive before it opened;
 * on SQLite its writer and checkpointer), and all the rest (V8's compiler and GC helpers,
 * libuv's pool), as the total of `process.cpuUsage()` less the first two.
 */
export class ThreadCpu {
  private readonly before: ReadonlySet<number>;
  constructor(before: Iterable<number> = ownThreads()) {
    this.before = new Set(before);
  }

  static threadsNow(): number[] {
    return ownThreads();
  }

  snapshot(): CpuSnapshot {
    let store = 0;
    for (const tid of ownThreads()) if (!this.before.has(tid)) store += taskCpuNs(`/proc/self/task/${tid}`);
    const usage = process.cpuUsage();
    return { totalUs: usage.user + usage.system, mainUs: taskCpuNs(`/proc/self/task/${process.pid}`) / 1000, storeUs: store / 1000 };
  }
}

export interface CpuSnapshot {
  totalUs: number;
  mainUs: number;
  storeUs: number;
}

export function cpuSince(from: CpuSnapshot, to: CpuSnapshot): CpuSnapshot {
  return { totalUs: to.totalUs - from.totalUs, mainUs: to.mainUs - from.mainUs, storeUs: to.storeUs - from.storeUs };
}
