import express, { type NextFunction, type Request, type Response } from 'express';
import { html } from './html';
import { negotiateLocale } from './i18n/locale';
import { translatorFor } from './i18n/translator';
import { layout } from './pages/layout';

/** What a multipart form adds around the file: its boundaries, part headers and the form's few short fields. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The file and fields of an upload's form, once its body is read. */
export interface UploadForm {
  fileName: string;
  bytes: Buffer;
}

/**
 * The upload's multipart body, read before the session is checked: the form's CSRF token is a
 * field of that body, so it cannot be checked before the body is read. What bounds the work is
 * the declared `Content-Length`, checked before a byte is read (a larger or undeclared body is
 * refused, and the connection closed, so it is never read); `express.raw` then stops at the same
 * limit whatever the client really sends. The fields become `req.body` (the session check reads
 * `_csrf` there as for every form) and the file `res.locals.upload`.
 */
export function uploadBody(maxFileBytes: number) {
  const limit = maxFileBytes + FORM_OVERHEAD_BYTES;
  const raw = express.raw({ type: 'multipart/form-data', limit });
  return [
    (req: Request, res: Response, next: NextFunction): void => {
      const declared = Number(req.get('content-length'));
      if (!req.is('multipart/form-data')) return void refuse(req, res, 415, 'upload.refused.notMultipart', maxFileBytes);
      if (!Number.isSafeInteger(declared) || declared > limit) return void refuse(req, res, 413, 'upload.refused.tooLarge', maxFileBytes);
      next();
    },
    raw,
    async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      try {
        const body = req.body instanceof Buffer ? req.body : Buffer.alloc(0);
        const form = await new Response(body, { headers: { 'content-type': req.get('content-type') ?? '' } }).formData();
        const fields: Record<string, string> = {};
        for (const [name, value] of form.entries()) {
          if (typeof value === 'string') fields[name] = value;
          else if (name === 'file') res.locals.upload = { fileName: value.name, bytes: Buffer.from(await value.arrayBuffer()) } satisfies UploadForm;
        }
        req.body = fields;
        next();
      } catch {
        refuse(req, res, 400, 'upload.refused.unreadableForm', maxFileBytes);
      }
    },
  ];
}

/** Answered before any session is known: in the language the browser asks for. */
function refuse(req: Request, res: Response, status: number, key: 'upload.refused.tooLarge' | 'upload.refused.notMultipart' | 'upload.refused.unreadableForm', maxFileBytes: number): void {
  const t = translatorFor(negotiateLocale(req.get('accept-language')));
  const message = t(key, { limit: t.number(maxFileBytes), size: t.number(Number(req.get('content-length')) || 0) });
  res.set('Connection', 'close');
  res.status(status).type('html').send(layout({
    title: t('upload.refused.title'), section: null, viewer: null, t,
    body: html`<h1>${t('upload.refused.title')}</h1><p>${message}</p><p><a href="/console/reconcile/upload">${t('upload.again')}</a></p>`,
  }));
}
