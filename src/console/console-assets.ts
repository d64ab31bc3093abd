import { dirname, join, resolve } from 'node:path';
import express, { Router } from 'express';
import type { Logger } from '../observability/logger';
import { maskFreeText } from '../observability/mask';

/** `assets/console` beside `migrations/`, found from both `src/console` (tests) and `dist/console`. */
const OWN_ASSETS = resolve(__dirname, '..', '..', 'assets', 'console');

/**
 * The chart library ships with the package, never from a CDN: the console must work offline.
 * A Map, not an object literal: a request for `constructor` must find nothing, not Object's.
 */
const UPLOT_FILES: ReadonlyMap<string, string> = new Map([
  ['uPlot.iife.min.js', 'uPlot.iife.min.js'],
  ['uPlot.min.css', 'uPlot.min.css'],
]);

export function consoleAssets(logger: Logger): Router {
  const router = Router();
  const uplotDist = join(dirname(require.resolve('uplot/package.json')), 'dist');
  router.get('/assets/:file', (req, res, next) => {
    const file = UPLOT_FILES.get(req.params.file);
    if (!file) return next();
    res.sendFile(join(uplotDist, file), { maxAge: '1h' });
  });
  // fallthrough: a missing file or a path out of the folder (serve-static's 404 and 403) comes
  // to the 404 below instead of the error handler, which would answer 500 and log an error.
  router.use('/assets', express.static(OWN_ASSETS, { maxAge: '1h', fallthrough: true, index: false }));
  router.use('/assets', (req, res) => {
    // Anyone may ask for any name; a miss is not the receiver's fault, so it is not a warning.
    logger.debug('console asset not found', { path: maskFreeText(req.originalUrl.slice(0, 200)) });
    res.status(404).type('text/plain').send('Not found.');
  });
  return router;
}
