import type { OperatorRole } from '../../store/store';
import { html, type SafeHtml } from '../html';
import { ACTING_ROLE, roleAllows } from '../roles';
import { NAV, type Section } from './nav';

export type { Section } from './nav';

/** Who is looking: the audit's name for them, their role (what the page offers) and the session's CSRF token. */
export interface Viewer {
  actor: string;
  role: OperatorRole;
  csrfToken: string;
}

export function csrfField(viewer: Viewer): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${viewer.csrfToken}">`;
}

/**
 * A POST button: every state change is a form with the session's CSRF token. Not rendered for a
 * role the server would refuse (`needs`, by default what any state change needs).
 */
export function actionButton(
  viewer: Viewer, action: string, label: string, hidden: Record<string, string> = {}, style = 'primary', needs: OperatorRole = ACTING_ROLE,
): SafeHtml {
  if (!roleAllows(viewer.role, needs)) return html``;
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
    ? html`<nav>${NAV.filter((entry) => roleAllows(viewer.role, entry.needs)).map(
    (entry) => html`<a href="${entry.href}" class="${entry.section === section ? 'active' : ''}">${entry.label}</a>`,
  )}</nav>
  <div class="who">${viewer.actor} <span class="muted">${viewer.role}</span> ${actionButton(viewer, '/console/sign-out', 'Sign out', {}, 'link', 'viewer')}</div>`
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
