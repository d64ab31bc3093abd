import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { createApp } from '../app';
import { loadConfig } from '../config/env';
import { closeServer } from '../http/close-server';
import { createLogger } from '../observability/logger';
import { createMetrics } from '../observability/metrics';
import { openIngestStore } from '../store/open-ingest-store';
import { startTracing } from '../tracing/tracing';
import type { FromIngest, IngestSetup, ToIngest } from './ingest-protocol';
import { watchLoopDelay } from './loop-delay';

/**
 * The gateway's listener on an event loop of its own: the source check, decoding, validation, the
 * store's record call and the ack, and nothing else. Whatever an operator, an export, the API, the
 * ledger or an alert does runs on the main thread and its workers, so none of it can hold an ack.
 * The configuration is the process's (the environment, read again here); the store is reached
 * without the main thread's loop (open-ingest-store.ts). The main thread supervises: if this
 * thread ends without being drained, the process exits.
 */
const setup = workerData as IngestSetup;
const port = parentPort!;
const send = (message: FromIngest) => port.postMessage(message);

async function serve(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL });
  const tracing = startTracing(config);
  const metrics = createMetrics({ processMetrics: false });
  const loopDelay = watchLoopDelay(metrics.ingestLoopDelay);
  const handle = await openIngestStore(config.DATABASE_URL, {
    onBackgroundError: (error) => logger.warn('store background error', { error: error.message }),
  });
  if (setup.writerPort) handle.attachWriter(setup.writerPort);
  const simulatorKeys = setup.simulatorKeys.map((key) => Buffer.from(key));
  const server = createApp({ config, store: handle.store, logger, metrics, tracing, simulatorKeys }).listen(config.PORT, config.HOST);

  port.on('message', (message: ToIngest) => {
    if (message.type === 'writer-port') handle.attachWriter(message.port);
    else if (message.type === 'metrics') void metrics.registry.getMetricsAsJSON().then((values) => send({ type: 'metrics', id: message.id, metrics: values }));
    else if (message.type === 'health') send({ type: 'health', id: message.id, loopDelayP99Ms: loopDelay.p99Ms() });
    else void drain(message.timeoutMs);
  });

  const drain = async (timeoutMs: number) => {
    // Stop accepting, let in-flight notifications commit and be acked, then let the store go.
    await closeServer(server, timeoutMs);
    await handle.close();
    await tracing?.shutdown().catch((error: Error) => logger.warn('trace export at shutdown failed', { error: error.message }));
    loopDelay.stop();
    send({ type: 'drained' });
    port.close();
  };

  server.once('error', (error) => send({ type: 'failed', error: error.message }));
  server.once('listening', () => send({ type: 'listening', port: (server.address() as AddressInfo).port }));
}

serve().catch((error: Error) => send({ type: 'failed', error: error.message }));
