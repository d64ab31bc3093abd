import type { Server } from 'node:http';

/** Stops accepting, lets in-flight requests finish, and cuts what is left after `timeoutMs`. */
export function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
