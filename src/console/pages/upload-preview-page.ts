import type { FileProblem, GatewayTransactionRow, SettlementRow } from '../../reconciliation/file/gateway-rows';
import type { GatewayListRow } from '../../reconciliation/file/read-gateway-list';
import type { StagedUpload } from '../../reconciliation/import/reconciliation-store';
import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import type { UploadReading } from '../upload-reading';
import { csrfField, layout, type Viewer, wordsOf } from './layout';
import { money } from './money';
import { fieldName, problemList } from './upload-problems';
import { when } from './when';

/** The gateway's lists are in won: the portal of a Korean PG writes no other currency. */
const LIST_CURRENCY = 'KRW';

export interface UploadPreviewView {
  upload: StagedUpload;
  reading: UploadReading;
  /** Whether the preview may offer Import (an import is wired); the reading decides whether it can. */
  canImport: boolean;
  notice?: string | null;
}

/**
 * What the operator checks before anything is imported: the header row found, the column each
 * field is read from (a select per field, the mapping screen), the first rows as they will be read,
 * the rows passed over and every problem. Everything from the file is shown as text.
 */
export function uploadPreviewPage(viewer: Viewer, view: UploadPreviewView): string {
  const t = wordsOf(viewer);
  const { upload, reading } = view;
  const { preview, whole } = reading;
  const problems: FileProblem[] = whole.ok ? [] : whole.problems;
  const base = `/console/reconcile/uploads/${encodeURIComponent(upload.id)}`;
  const body = html`<h1>${t('upload.previewTitle')} <bdi class="data">${upload.fileName}</bdi></h1>
<section class="card"><table class="facts"><tbody>
<tr><th>${t('upload.mall')}</th><td>${isolated(upload.mallId)}</td></tr>
<tr><th>${t('upload.kind')}</th><td>${t(`upload.kind.${preview.kind}`)}</td></tr>
<tr><th>${t('upload.headerRow')}</th><td>${preview.headerLine === null ? t('upload.noHeader') : t.number(preview.headerLine)}</td></tr>
<tr><th>${t('upload.mappingSource')}</th><td>${t(`upload.source.${reading.source}`)}</td></tr>
${whole.ok ? html`<tr><th>${t('upload.rows')}</th><td data-rows>${t.number(whole.rowCount)}</td></tr><tr><th>${t('upload.days')}</th><td>${whole.firstDay === whole.lastDay ? whole.firstDay : `${whole.firstDay} – ${whole.lastDay}`}</td></tr>` : ''}
</tbody></table></section>
${problems.length > 0 ? html`<section class="refused"><h2>${t('upload.problems', { count: problems.length })}</h2><p>${t('upload.problemsIntro')}</p>${problemList(t, problems, preview.missing)}</section>` : ''}
${mappingForm(viewer, base, reading)}
<h2>${t('upload.firstRows', { count: preview.rows.length })}</h2>
${preview.rows.length === 0 ? html`<p class="muted">${t('upload.noRows')}</p>` : rowsTable(t, preview.kind, preview.rows)}
${whole.ok && whole.skipped.length > 0 ? html`<h2>${t('upload.skipped', { count: whole.skipped.length })}</h2>${problemList(t, whole.skipped)}` : ''}
${whole.ok && view.canImport ? importForm(viewer, base, reading) : ''}
<p><a href="/console/reconcile/upload?mall=${upload.mallId}">${t('upload.again')}</a></p>`;
  return layout({ title: t('upload.previewTitle'), section: 'reconcile', viewer, body, notice: view.notice ?? null });
}

/**
 * The mapping screen: for each field a select of the file's headers, the one read now chosen.
 * Previewing again changes nothing; saving keeps the choice for the mall's later uploads.
 */
function mappingForm(viewer: Viewer, base: string, reading: UploadReading): SafeHtml {
  const t = wordsOf(viewer);
  const { preview } = reading;
  if (preview.headers.length === 0) return html``;
  const headers = [...new Set(preview.headers.filter((header) => header !== ''))];
  // Open while columns are missing or being chosen: the choice is what the operator is looking at.
  const open = preview.missing.length > 0 || reading.source === 'given';
  return html`<details class="mapping"${open ? html` open` : ''}><summary><h2 class="inline">${t('upload.mapping')}</h2></summary>
<p>${t(open ? 'upload.mappingMissing' : 'upload.mappingIntro')}</p>
<form method="post" action="${base}/preview">${csrfField(viewer)}
<table><thead><tr><th>${t('upload.field')}</th><th>${t('upload.readFrom')}</th></tr></thead><tbody>${preview.fields.map((field) => {
    const chosen = preview.mapping[field] ?? '';
    const missing = preview.missing.includes(field);
    return html`<tr${missing ? html` class="missing"` : ''}><td><label for="map-${field}">${fieldName(t, field)}</label> <code class="muted">${field}</code>${missing ? html` <strong>${t('upload.needed')}</strong>` : ''}</td>
<td><select id="map-${field}" name="map.${field}"><option value="">${t('upload.notRead')}</option>${headers.map((header) => html`<option value="${header}"${header === chosen ? html` selected` : ''}>${header}</option>`)}</select></td></tr>`;
  })}</tbody></table>
<p><button type="submit">${t('upload.previewAgain')}</button>
<button type="submit" formaction="${base}/mapping" class="primary">${t('upload.saveMapping')}</button></p>
</form></details>`;
}

function importForm(viewer: Viewer, base: string, reading: UploadReading): SafeHtml {
  const t = wordsOf(viewer);
  return html`<form method="post" action="${base}/import" class="import">${csrfField(viewer)}
<input type="hidden" name="kind" value="${reading.preview.kind}">
${Object.entries(reading.preview.mapping).map(([field, header]) => html`<input type="hidden" name="map.${field}" value="${header ?? ''}">`)}
<p>${t('upload.importHint')}</p>
<button type="submit" class="primary">${t('upload.import')}</button></form>`;
}

function rowsTable(t: Translator, kind: string, rows: readonly GatewayListRow[]): SafeHtml {
  if (kind === 'settlement') {
    const fields = ['pgCno', 'cancelPgCno', 'shopOrderNo', 'gross', 'fee', 'feeVat', 'payout', 'payoutDay', 'transactionDay'];
    return html`<table class="rows"><thead><tr><th>${t('upload.line')}</th>${fields.map((f) => html`<th>${fieldName(t, f)}</th>`)}</tr></thead><tbody>${(rows as SettlementRow[]).map((row) => html`<tr>
<td>${t.number(row.line)}</td><td>${isolated(row.pgCno)}</td><td>${isolated(row.cancelPgCno ?? '—')}</td><td>${isolated(row.shopOrderNo ?? '—')}</td>
<td>${money(t, row.gross, LIST_CURRENCY)}</td><td>${money(t, row.fee, LIST_CURRENCY)}</td><td>${money(t, row.feeVat, LIST_CURRENCY)}</td><td>${money(t, row.payout, LIST_CURRENCY)}</td>
<td>${row.payoutDay}</td><td>${row.transactionDay ?? '—'}</td></tr>`)}</tbody></table>`;
  }
  const fields = ['pgCno', 'cancelPgCno', 'shopOrderNo', 'approvalNo', 'amount', 'cancelledAmount', 'at', 'status', 'method'];
  return html`<table class="rows"><thead><tr><th>${t('upload.line')}</th><th>${t('upload.rowKind')}</th>${fields.map((f) => html`<th>${fieldName(t, f)}</th>`)}</tr></thead><tbody>${(rows as GatewayTransactionRow[]).map((row) => html`<tr>
<td>${t.number(row.line)}</td><td>${t(`upload.rowKind.${row.kind}`)}</td><td>${isolated(row.pgCno)}</td><td>${isolated(row.cancelPgCno ?? '—')}</td>
<td>${isolated(row.shopOrderNo ?? '—')}</td><td>${isolated(row.approvalNo ?? '—')}</td><td>${money(t, row.amount, LIST_CURRENCY)}</td>
<td>${row.cancelledAmount === null ? '—' : money(t, row.cancelledAmount, LIST_CURRENCY)}</td><td>${when(t, row.at)}</td>
<td>${isolated(row.statusText)}</td><td>${isolated(row.method ?? '—')}</td></tr>`)}</tbody></table>`;
}
