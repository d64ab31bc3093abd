import { html, type SafeHtml } from '../html';

export type Section = 'overview' | 'events' | 'rejections' | 'conflicts' | 'commands' | 'audit';

export interface Viewer {
  actor: string;
  csrfToken: string;
}

const NAV: Array<[Section, string, string]> = [
  ['overview', 'Overview', '/console'],
  ['events', 'Events', '/console/events'],
  ['rejections', 'Rejections', '/console/rejections'],
  ['conflicts', 'Conflicts', '/console/conflicts'],
  ['commands', 'Commands', '/console/commands'],
  ['audit', 'Audit', '/console/audit'],
];

export function csrfField(viewer: Viewer): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${viewer.csrfToken}">`;
}

/** A POST button: every state change is a form with the session's CSRF token. */
export function actionButton(viewer: Viewer, action: string, label: string, hidden: Record<string, string> = {}, style = 'primary'): SafeHtml {
  return html`<form method="post" action="${action}" class="inline">${csrfField(viewer)}${Object.entries(hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button type="submit" class="${style}">${label}</button></form>`;
}

export function layout(options: { title: string; section: Section | null; viewer: Viewer | null; body: SafeHtml; scripts?: string[]; notice?: string | null }): string {
  const { title, section, viewer, body } = options;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · payment-noti-receiver</title>
<link rel="stylesheet" href="/console/assets/console.css">
<link rel="stylesheet" href="/console/assets/uPlot.min.css">
</head>
<body>
<header class="top">
  <a class="brand" href="/console">payment-noti-receiver</a>
  ${viewer
    ? html`<nav>${NAV.map(([key, label, href]) => html`<a href="${href}" class="${key === section ? 'active' : ''}">${label}</a>`)}</nav>
  <div class="who">${viewer.actor} ${actionButton(viewer, '/console/sign-out', 'Sign out', {}, 'link')}</div>`
    : ''}
</header>
<main>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${body}
</main>
${(options.scripts ?? []).map((src) => html`<script src="${src}"></script>`)}
</body>
</html>`.text;
}
