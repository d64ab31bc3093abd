import { dirname, join, resolve } from 'node:path';
import express, { Router } from 'express';

/** `assets/console` beside `migrations/`, found from both `src/console` (tests) and `dist/console`. */
const OWN_ASSETS = resolve(__dirname, '..', '..', 'assets', 'console');

/** The chart library ships with the package, never from a CDN: the console must work offline. */
const UPLOT_FILES: Record<string, string> = {
  'uPlot.iife.min.js': 'uPlot.iife.min.js',
  'uPlot.min.css': 'uPlot.min.css',
};

export function consoleAssets(): Router {
  const router = Router();
  const uplotDist = join(dirname(require.resolve('uplot/package.json')), 'dist');
  router.get('/assets/:file', (req, res, next) => {
    const file = UPLOT_FILES[req.params.file];
    if (!file) return next();
    res.sendFile(join(uplotDist, file), { maxAge: '1h' });
  });
  router.use('/assets', express.static(OWN_ASSETS, { maxAge: '1h', fallthrough: false, index: false }));
  return router;
}
