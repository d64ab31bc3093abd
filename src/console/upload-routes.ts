import crypto from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { isCalendarDay } from '../calendar-day';
import { daysBetween } from '../ledger/summary/kst-day';
import type { GatewayListKind } from '../reconciliation/file/gateway-rows';
import type { ImportOutcome } from '../reconciliation/import/import-list';
import type { StagedUpload } from '../reconciliation/import/reconciliation-store';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { badRequestPage } from './pages/bad-request-page';
import { notFoundPage } from './pages/not-found-page';
import { uploadFormPage } from './pages/upload-form-page';
import { uploadPreviewPage } from './pages/upload-preview-page';
import { uploadRefusedPage } from './pages/upload-refused-page';
import { requireRole, sessionOf } from './require-session';
import { ACTING_ROLE } from './roles';
import type { UploadForm } from './upload-body';
import { readUploadOffLoop } from './render/read-upload-off-loop';
import { ASKED_KINDS, mappingFromForm, type AskedKind } from './upload-reading';

const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;

type UploadDeps = ConsoleDeps & { reconciliation: NonNullable<ConsoleDeps['reconciliation']> };

const FILE_NAME = /\.(xlsx|csv)$/i;
const MALL = /^[A-Za-z0-9]{1,8}$/;
const UPLOAD_ID = /^upl_[A-Za-z0-9_-]{24}$/;
/** Every field a mapping may name, transaction list and statement together. */
const MAPPED_FIELDS = [
  'pgCno', 'cancelPgCno', 'shopOrderNo', 'approvalNo', 'amount', 'cancelledAmount', 'at', 'atDay', 'atTime', 'status', 'entryType', 'method',
  'gross', 'fee', 'feeVat', 'payout', 'payoutDay', 'transactionDay',
] as const;

export const maxFileBytesOf = (deps: Pick<ConsoleDeps, 'config'>): number => deps.config.RECONCILE_MAX_FILE_BYTES ?? DEFAULT_MAX_FILE_BYTES;

const text = (value: unknown, max: number): string => (typeof value === 'string' ? value.trim().slice(0, max) : '');

/**
 * Reconcile → Upload: the portal's file is staged in the database (so whichever replica answers
 * the next request finds it), previewed with the mall's saved mapping or the built-in header names,
 * mapped again where needed, and imported once the operator confirms. Operators and admins only;
 * the multipart body itself is read by uploadBody, before the session's check.
 */
export function uploadRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const store = deps.reconciliation;
  if (!store) return router;
  const withStore: UploadDeps = { ...deps, reconciliation: store };
  router.use('/reconcile/upload', requireRole(ACTING_ROLE, deps.logger));
  router.use('/reconcile/uploads', requireRole(ACTING_ROLE, deps.logger));

  router.get('/reconcile/upload', (req, res) => {
    const mall = text(req.query.mall, 8);
    const day = text(req.query.day, 10);
    res.type('html').send(uploadFormPage(sessionOf(res), {
      malls: deps.config.MALL_IDS, mall: MALL.test(mall) ? mall : '', day: isCalendarDay(day) ? day : '', maxBytes: maxFileBytesOf(deps),
    }));
  });

  router.post('/reconcile/upload', async (req, res) => {
    const session = sessionOf(res);
    const body = req.body as Record<string, unknown>;
    const file = res.locals.upload as UploadForm | undefined;
    const mall = text(body.mall, 20);
    const kind = text(body.kind, 20) as AskedKind;
    const issue = !file || file.bytes.length === 0 ? session.t('upload.bad.noFile')
      : !FILE_NAME.test(file.fileName) ? session.t('upload.bad.fileType')
        : !MALL.test(mall) || (deps.config.MALL_IDS.length > 0 && !deps.config.MALL_IDS.includes(mall)) ? session.t('upload.bad.mall', { mall })
          : !ASKED_KINDS.includes(kind) ? session.t('upload.bad.kind') : null;
    if (issue !== null || !file) return res.status(400).type('html').send(badRequestPage(session, 'reconcile', issue ?? ''));
    const upload: StagedUpload = {
      id: `upl_${crypto.randomBytes(18).toString('base64url')}`, mallId: mall, kind, fileName: file.fileName.slice(-200), bytes: file.bytes,
      uploadedBy: session.operator, uploadedAt: deps.now().toISOString(),
    };
    await store.stageUpload(upload);
    deps.logger.info('console upload staged', { id: upload.id, mallId: mall, kind, bytes: file.bytes.length, operator: session.operator });
    res.redirect(303, `/console/reconcile/uploads/${upload.id}`);
  });

  router.get('/reconcile/uploads/:id', async (req: Request<{ id: string }>, res) => {
    const upload = await stagedFor(withStore, req.params.id, res);
    if (upload) await sendPreview(withStore, res, upload, null, req.query.saved === '1' ? sessionOf(res).t('upload.mappingSaved') : null);
  });

  router.post('/reconcile/uploads/:id/preview', async (req: Request<{ id: string }>, res) => {
    const upload = await stagedFor(withStore, req.params.id, res);
    if (upload) await sendPreview(withStore, res, upload, mappingFromForm(req.body as Record<string, unknown>, MAPPED_FIELDS), null);
  });

  router.post('/reconcile/uploads/:id/mapping', async (req: Request<{ id: string }>, res) => {
    const session = sessionOf(res);
    const upload = await stagedFor(withStore, req.params.id, res);
    if (!upload) return;
    const mapping = mappingFromForm(req.body as Record<string, unknown>, MAPPED_FIELDS);
    if (!mapping) return res.status(400).type('html').send(badRequestPage(session, 'reconcile', session.t('upload.bad.emptyMapping')));
    const reading = await readUploadOffLoop(upload.bytes, upload.fileName, { kind: upload.kind as AskedKind, given: mapping, saved: [], maxBytes: maxFileBytesOf(deps) });
    // A mapping that does not find the key columns would be tried first on every later upload in vain.
    if (reading.preview.missing.length > 0 || reading.preview.headerLine === null) return sendPreview(withStore, res, upload, mapping, session.t('upload.mappingIncomplete'), 400);
    const saved = { mallId: upload.mallId, kind: reading.preview.kind, mapping: reading.preview.mapping as Record<string, string>, savedBy: session.operator, savedAt: deps.now().toISOString() };
    await store.saveMapping(saved, session.actor);
    deps.logger.info('console audit', { audit: { at: saved.savedAt, actor: session.actor, action: 'saved column mapping', subject: `${saved.mallId} ${saved.kind}` } });
    res.redirect(303, `/console/reconcile/uploads/${upload.id}?saved=1`);
  });

  router.post('/reconcile/uploads/:id/import', async (req: Request<{ id: string }>, res) => {
    const session = sessionOf(res);
    const upload = await stagedFor(withStore, req.params.id, res);
    if (!upload) return;
    if (!deps.importGatewayFile) return res.status(404).type('html').send(notFoundPage(session, 'reconcile', session.t('upload.noImport')));
    const body = req.body as Record<string, unknown>;
    const asked = text(body.kind, 20);
    const kind: GatewayListKind | undefined = asked === 'transactions' || asked === 'settlement' ? asked : undefined;
    const mapping = mappingFromForm(body, MAPPED_FIELDS);
    const outcome = await deps.importGatewayFile({ bytes: upload.bytes, fileName: upload.fileName, mallId: upload.mallId, kind, mapping, actor: session.actor, at: deps.now().toISOString() });
    await audit(deps, session.actor, outcomeAction(outcome), upload.fileName, auditDetail(upload, kind, outcome));
    if (outcome.outcome === 'refused') return res.status(422).type('html').send(uploadRefusedPage(session, upload, outcome.problems));
    await store.dropUpload(upload.id);
    // The Reconcile page of the list's first day, with a fixed notice of the counts (never text in the URL).
    res.redirect(303, `/console/reconcile?${importNotice(outcome)}`);
  });
  return router;
}

/** The staged upload, for the operator who uploaded it only; otherwise a 404 page (and null). */
async function stagedFor(deps: UploadDeps, id: string, res: Response): Promise<StagedUpload | null> {
  const session = sessionOf(res);
  const upload = UPLOAD_ID.test(id) ? await deps.reconciliation.findUpload(id, deps.now().toISOString()) : null;
  if (upload && upload.uploadedBy === session.operator) return upload;
  res.status(404).type('html').send(notFoundPage(session, 'reconcile', session.t('upload.notStaged')));
  return null;
}

async function sendPreview(deps: UploadDeps, res: Response, upload: StagedUpload, given: ReturnType<typeof mappingFromForm>, notice: string | null, status = 200): Promise<void> {
  const saved = given ? [] : await deps.reconciliation.mappingsOf(upload.mallId);
  const reading = await readUploadOffLoop(upload.bytes, upload.fileName, { kind: upload.kind as AskedKind, given, saved, maxBytes: maxFileBytesOf(deps) });
  res.status(status).type('html').send(uploadPreviewPage(sessionOf(res), { upload, reading, canImport: Boolean(deps.importGatewayFile), notice }));
}

function outcomeAction(outcome: ImportOutcome): string {
  return outcome.outcome === 'refused' ? 'gateway list refused' : outcome.outcome === 'imported' ? 'uploaded gateway list' : 'uploaded gateway list again';
}

/** In English, as every audit detail is stored: the file, the list, the rows, or why it was refused. */
function auditDetail(upload: StagedUpload, kind: GatewayListKind | undefined, outcome: ImportOutcome): string {
  const head = `${upload.mallId} ${kind ?? 'detected'} list (${upload.fileName})`;
  if (outcome.outcome === 'refused') return `${head}: refused: ${outcome.problems.slice(0, 5).map((p) => p.code).join(', ')}`;
  const i = outcome.summary.import;
  return `${head}: ${i.rowCount} rows, ${i.firstDay}..${i.lastDay}, import ${i.id}${outcome.outcome === 'already_imported' ? ', already imported' : ''}`;
}

function importNotice(outcome: Exclude<ImportOutcome, { outcome: 'refused' }>): string {
  const i = outcome.summary.import;
  const differences = outcome.summary.differences;
  const found = differences === null ? null : Object.values(differences).reduce((sum, n) => sum + (n ?? 0), 0);
  // A settlement statement tells the ledger nothing: no match to wait for, its fees and payouts are on the page.
  const done = outcome.outcome === 'already_imported' ? 'list-already-imported'
    : i.kind === 'settlement' ? 'statement-imported' : found === null ? 'list-imported-matching' : 'list-imported';
  return new URLSearchParams({ day: i.firstDay, mall: i.mallId, done, n: String(i.rowCount), days: String(daysBetween(i.firstDay, i.lastDay).length), d: String(found ?? 0) }).toString();
}
