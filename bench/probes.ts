/**
 * What runs beside the gateway's POSTs in production: a readiness probe and a metrics scrape, here
 * every `intervalMs` (1 s is ten times a default Kubernetes readiness period, so that a stall each
 * one causes shows in a 10 s run's p99). Both are answered from the store on the receiver's event
 * loop, so a probe that reads in proportion to the inbox's size holds every ack that long.
 */
export function startProbes(adminUrl: string, intervalMs: number): { stop(): Promise<{ probes: number; failed: number }> } {
  let probes = 0;
  let failed = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const probe = async () => {
    for (const path of ['/readyz', '/metrics']) {
      probes += 1;
      try {
        const response = await fetch(`${adminUrl}${path}`);
        await response.arrayBuffer();
        if (!response.ok) failed += 1;
      } catch {
        failed += 1;
      }
    }
  };
  const timer = setInterval(() => {
    inFlight = inFlight.then(probe);
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
      return { probes, failed };
    },
  };
}
