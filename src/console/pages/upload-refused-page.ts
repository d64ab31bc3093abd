import type { FileProblem } from '../../reconciliation/file/gateway-rows';
import type { StagedUpload } from '../../reconciliation/import/reconciliation-store';
import { html } from '../html';
import { layout, type Viewer, wordsOf } from './layout';
import { problemList } from './upload-problems';

/** An import refused whole: every reason with its row and column; nothing of the file was stored. */
export function uploadRefusedPage(viewer: Viewer, upload: StagedUpload, problems: readonly FileProblem[]): string {
  const t = wordsOf(viewer);
  const body = html`<h1>${t('upload.refusedTitle')} <bdi class="data">${upload.fileName}</bdi></h1>
<p>${t('upload.refusedIntro')}</p>
${problemList(t, problems)}
<p><a href="/console/reconcile/uploads/${encodeURIComponent(upload.id)}">${t('upload.backToPreview')}</a> · <a href="/console/reconcile/upload?mall=${upload.mallId}">${t('upload.again')}</a></p>`;
  return layout({ title: t('upload.refusedTitle'), section: 'reconcile', viewer, body });
}
