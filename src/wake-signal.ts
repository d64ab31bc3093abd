/**
 * How a loop that follows the store waits: `sleep(ms)` ends when `ms` have passed, when `wake()`
 * is called, or when the loop is stopped; a wake-up that came while the loop was busy makes its
 * next sleep end at once, so no commit is missed between a pass and the sleep after it. `ready`
 * lets a loop ignore wake-ups for a while (the relay while its head waits out a back-off: waking
 * would only read the same head again). Shared by the relay and the ledger's projector.
 */
export class WakeSignal {
  private wokenSinceReset = false;
  private stopping = false;
  private wakeUp: (() => void) | null = null;

  constructor(private readonly ready: () => boolean = () => true) {}

  /** New work was committed. */
  wake(): void {
    this.wokenSinceReset = true;
    if (this.ready()) this.wakeUp?.();
  }

  /** Ends the sleep in progress and the next one whatever `ready` says (a shutdown's last drain). */
  wakeNow(): void {
    this.wokenSinceReset = true;
    this.wakeUp?.();
  }

  /** Every sleep from now on ends at once; the loop checks `stopped` and ends. */
  stop(): void {
    this.stopping = true;
    this.wakeUp?.();
  }

  get stopped(): boolean {
    return this.stopping;
  }

  /** Whether a wake-up came since the last `reset`. */
  get woken(): boolean {
    return this.wokenSinceReset;
  }

  /** The pass about to run reads everything the wake-ups so far announced. */
  reset(): void {
    this.wokenSinceReset = false;
  }

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if ((this.wokenSinceReset && this.ready()) || this.stopping) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.wakeUp = done;
    });
  }
}
