import { Worker } from 'node:worker_threads';
import type { Viewer } from '../pages/layout';
import type { PageReply, PageRequest, ViewerData } from './page-protocol';
import type { PageArgs, PageName } from './page-recipes';
import { workerFile } from './worker-file';

/**
 * The main thread's side of the page thread (page-worker.ts). The gateway's listener, the console
 * and the internal API share one event loop: a page that masks a 64 KB field or escapes an
 * order's 2,000 cancels there held a gateway POST sent meanwhile for as long (7 to 54 s before
 * masking was linear, still 50 to 250 ms after). Here the loop only hands the data over and takes
 * the page back. One thread, started by the first page that needs it, kept alive only while a page
 * is waiting; a thread that dies fails the pages it held, and the next page starts another.
 */
class PageThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (html: string) => void; reject: (error: Error) => void }>();
  private nextId = 1;

  render(name: PageName, viewer: ViewerData, args: unknown[]): Promise<string> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, name, viewer, args } satisfies PageRequest);
    });
  }

  private start(): Worker {
    // A page is a few hundred KB at most; the cap keeps a runaway page from taking the process's memory.
    const worker = new Worker(workerFile('page-worker', __dirname), { resourceLimits: { maxOldGenerationSizeMb: 256 } });
    worker.on('message', (reply: PageReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiting.resolve(reply.html);
      else waiting.reject(new Error(`console page failed: ${reply.error}`));
    });
    const lost = (reason: string) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(new Error(reason));
      this.pending.clear();
    };
    worker.on('error', (error) => lost(`console page thread failed: ${error.message}`));
    worker.on('exit', () => lost('console page thread stopped'));
    worker.unref();
    return worker;
  }
}

const thread = new PageThread();

const viewerData = (viewer: Viewer): ViewerData => ({
  actor: viewer.actor,
  role: viewer.role,
  csrfToken: viewer.csrfToken,
  ...(viewer.here === undefined ? {} : { here: viewer.here }),
  locale: viewer.t?.locale ?? 'en',
});

/** The page `name` drawn on the page thread from `args` (plain data: what the store gave). */
export function renderOffLoop<K extends PageName>(name: K, viewer: Viewer, ...args: PageArgs<K>): Promise<string> {
  return thread.render(name, viewerData(viewer), args);
}
