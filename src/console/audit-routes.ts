import { Router } from 'express';
import { rowIdOf } from '../row-id';
import type { AuditSearch } from '../store/store';
import type { ConsoleDeps } from './console-deps';
import { kstDayStart } from './format';
import type { AuditFilterForm } from './pages/audit-page';
import { renderOffLoop } from './render/off-loop-pages';
import { sessionOf } from './require-session';

const PAGE_SIZE = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) : '');

/** The filter as typed (echoed into the form and the paging link) and the store's search; a bad value is dropped, not refused. */
function parseAuditFilter(query: Record<string, unknown>): { form: AuditFilterForm; search: AuditSearch } {
  const form: AuditFilterForm = {
    operator: text(query.operator, 254),
    action: text(query.action, 100),
    from: kstDayStart(text(query.from, 10)) ? text(query.from, 10) : '',
    to: kstDayStart(text(query.to, 10)) ? text(query.to, 10) : '',
  };
  const search: AuditSearch = { limit: PAGE_SIZE };
  if (form.operator) search.operator = form.operator;
  if (form.action) search.action = form.action;
  if (form.from) search.from = kstDayStart(form.from)!;
  // "to" is a whole day in Korea, inclusive.
  if (form.to) search.to = new Date(Date.parse(kstDayStart(form.to)!) + DAY_MS).toISOString();
  const before = rowIdOf(query.before);
  if (before !== null) search.before = before;
  return { form, search };
}

/** The Audit page: newest first, a page at a time (keyset on the row id), narrowed by operator, action and days. */
export function auditRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  router.get('/audit', async (req, res) => {
    const { form, search } = parseAuditFilter(req.query);
    const page = await deps.store.searchAudit(search);
    res.type('html').send(await renderOffLoop('audit', sessionOf(res), { form, rows: page.rows, next: page.last, paged: search.before !== undefined }));
  });
  return router;
}
