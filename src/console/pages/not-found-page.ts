import { html } from '../html';
import { layout, type Section, type Viewer } from './layout';

export function notFoundPage(viewer: Viewer, section: Section, message: string): string {
  return layout({ title: 'Not found', section, viewer, body: html`<h1>Not found</h1><p>${message}</p>` });
}
