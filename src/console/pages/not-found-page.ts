import { html } from '../html';
import { layout, type Section, type Viewer, wordsOf } from './layout';

export function notFoundPage(viewer: Viewer, section: Section, message: string): string {
  const t = wordsOf(viewer);
  return layout({ title: t('notFound.title'), section, viewer, body: html`<h1>${t('notFound.title')}</h1><p>${message}</p>` });
}
