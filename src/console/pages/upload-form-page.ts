import { html } from '../html';
import { ASKED_KINDS } from '../upload-reading';
import { csrfField, layout, type Viewer, wordsOf } from './layout';

/**
 * The upload form: the portal's file, the mall it is of, and which list it is. A multipart POST
 * with the session's CSRF token as its first field, as every console form carries it.
 */
export function uploadFormPage(viewer: Viewer, options: { malls: readonly string[]; mall: string; day: string; maxBytes: number }): string {
  const t = wordsOf(viewer);
  const mallField = options.malls.length > 0
    ? html`<select name="mall" required>${options.malls.map((mall) => html`<option value="${mall}"${mall === options.mall ? html` selected` : ''}>${mall}</option>`)}</select>`
    : html`<input name="mall" required pattern="[A-Za-z0-9]{1,8}" maxlength="8" value="${options.mall}">`;
  const body = html`<h1>${t('upload.title')}</h1>
<p>${t('upload.intro')}</p>
<form method="post" action="/console/reconcile/upload" enctype="multipart/form-data" class="upload">${csrfField(viewer)}
<input type="hidden" name="day" value="${options.day}">
<p><label>${t('upload.file')} <input type="file" name="file" accept=".xlsx,.csv" required></label>
<span class="muted">${t('upload.fileHint', { limit: t.number(Math.floor(options.maxBytes / (1024 * 1024))) })}</span></p>
<p><label>${t('upload.mall')} ${mallField}</label></p>
<fieldset><legend>${t('upload.kind')}</legend>${ASKED_KINDS.map((kind) => html`<label><input type="radio" name="kind" value="${kind}"${kind === 'detect' ? html` checked` : ''}> ${t(`upload.kind.${kind}`)}</label> `)}</fieldset>
<p><button type="submit" class="primary">${t('upload.preview')}</button></p>
</form>
${options.day ? html`<p><a href="/console/reconcile?day=${options.day}${options.mall ? `&mall=${options.mall}` : ''}">${t('upload.backToDay', { day: options.day })}</a></p>` : ''}`;
  return layout({ title: t('upload.title'), section: 'reconcile', viewer, body });
}
