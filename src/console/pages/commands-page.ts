import { html } from '../html';
import { layout, type Viewer } from './layout';

/** Extension point: the internal API's commands (SPEC 5) get their list and attempts here once that API lands. */
export function commandsUnavailablePage(viewer: Viewer): string {
  return layout({
    title: 'Commands',
    section: 'commands',
    viewer,
    body: html`<h1>Commands</h1><p class="muted">The internal API (SPEC 5) is not part of this build yet; its commands will be listed here with their state and every attempt.</p>`,
  });
}
