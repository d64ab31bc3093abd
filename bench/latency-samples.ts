/** Every latency of a run, kept whole: percentiles are read from the raw samples, nearest rank. */
export class LatencySamples {
  private values = new Float64Array(1 << 16);
  count = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  percentile(p: number): number {
    if (this.count === 0) return 0;
    const sorted = this.values.slice(0, this.count).sort();
    return sorted[Math.min(this.count - 1, Math.max(0, Math.ceil((p / 100) * this.count) - 1))]!;
  }

  summary(): { requests: number; latencyP50Ms: number; latencyP99Ms: number; latencyMaxMs: number } {
    const sorted = this.values.slice(0, this.count).sort();
    const at = (p: number) => (this.count === 0 ? 0 : sorted[Math.min(this.count - 1, Math.max(0, Math.ceil((p / 100) * this.count) - 1))]!);
    return { requests: this.count, latencyP50Ms: at(50), latencyP99Ms: at(99), latencyMaxMs: at(100) };
  }
}
