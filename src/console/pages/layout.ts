import type { OperatorRole } from '../../store/store';
import { html, type SafeHtml } from '../html';
import { LOCALES, type Locale } from '../i18n/locale';
import { translatorFor, type Translator } from '../i18n/translator';
import { ACTING_ROLE, roleAllows } from '../roles';
import { NAV, type Section } from './nav';

export type { Section } from './nav';

/**
 * Who is looking: the audit's name for them, their role (what the page offers), the session's
 * CSRF token, the language the page speaks and the page's own address (where the switch returns).
 */
export interface Viewer {
  actor: string;
  role: OperatorRole;
  csrfToken: string;
  /** Absent where a page is rendered without a session's language (some tests): English. */
  t?: Translator;
  here?: string;
}

/** The language the viewer's pages speak. */
export const wordsOf = (viewer: Viewer): Translator => viewer.t ?? translatorFor('en');

/** Each language's name in itself: the switch reads the same whatever language the page is in. */
const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', ko: '한국어' };

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

/**
 * The header's one form: the language switch (each button posts to /console/locale, which the
 * session remembers) and Sign out. One form, so a page has no POST form a viewer could not use.
 */
function sessionForm(viewer: Viewer): SafeHtml {
  const t = wordsOf(viewer);
  return html`<form method="post" action="/console/sign-out" class="inline session-form">${csrfField(viewer)}
<input type="hidden" name="back" value="${viewer.here ?? '/console'}">
<span class="languages" role="group" aria-label="${t('layout.language')}">${LOCALES.map((locale) => html`<button type="submit" formaction="/console/locale" name="locale" value="${locale}" lang="${locale}" class="link${locale === t.locale ? ' current' : ''}"${locale === t.locale ? html` aria-current="true"` : ''}>${LANGUAGE_NAMES[locale]}</button>`)}</span>
<button type="submit" class="link">${t('layout.signOut')}</button></form>`;
}

/** Before sign-in there is no session to remember a choice: the switch is a link that says it in the URL. */
function languageLinks(t: Translator, hrefOf: (locale: Locale) => string): SafeHtml {
  return html`<div class="who"><span class="languages" role="group" aria-label="${t('layout.language')}">${LOCALES.map((locale) => html`<a href="${hrefOf(locale)}" lang="${locale}" class="${locale === t.locale ? 'current' : ''}"${locale === t.locale ? html` aria-current="true"` : ''}>${LANGUAGE_NAMES[locale]}</a>`)}</span></div>`;
}

export function layout(options: {
  title: string; section: Section | null; viewer: Viewer | null; body: SafeHtml; scripts?: string[]; notice?: string | null;
  /** The page's language where there is no viewer (sign-in, refusals). */
  t?: Translator;
  /** Where there is no session: the switch's link for each language. */
  languageHref?: (locale: Locale) => string;
}): string {
  const { title, section, viewer, body } = options;
  const t = viewer ? wordsOf(viewer) : options.t ?? translatorFor('en');
  return html`<!doctype html>
<html lang="${t.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · payment-noti-receiver</title>
<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/assets/console.css">
<link rel="stylesheet" href="/console/assets/uPlot.min.css">
</head>
<body>
<header class="top">
  <a class="brand" href="/console" translate="no">payment-noti-receiver</a>
  ${viewer
    ? html`<nav>${NAV.filter((entry) => roleAllows(viewer.role, entry.needs)).map(
    (entry) => html`<a href="${entry.href}" class="${entry.section === section ? 'active' : ''}">${t(entry.label)}</a>`,
  )}</nav>
  <div class="who"><span class="data">${viewer.actor}</span> <span class="muted">${t(`role.${viewer.role}`)}</span> ${sessionForm(viewer)}</div>`
    : options.languageHref ? languageLinks(t, options.languageHref) : ''}
</header>
<main>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${body}
</main>
${(options.scripts ?? []).map((src) => html`<script src="${src}"></script>`)}
</body>
</html>`.text;
}
