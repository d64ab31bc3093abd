import { html, isolated } from '../html';
import type { Translator } from '../i18n/translator';
import { layout, type Viewer, wordsOf } from './layout';

/** A signed-in operator asked for something their role may not do. */
export function forbiddenPage(viewer: Viewer, message: string): string {
  const t = wordsOf(viewer);
  return layout({ title: t('forbidden.title'), section: null, viewer, body: html`<h1>${t('forbidden.title')}</h1><p role="alert">${message}</p>` });
}

/**
 * The sign-on proxy named someone who is no operator here. The name is shown (as text: it is the
 * proxy's header, which a person chose) so they can tell an admin exactly what to add.
 */
export function unknownOperatorPage(name: string, t: Translator): string {
  return layout({
    title: t('unknownOperator.title'),
    section: null,
    viewer: null,
    t,
    body: html`<section class="card narrow">
  <h1>${t('unknownOperator.title')}</h1>
  <p role="alert">${t.rich('unknownOperator.signedOnAs', { name: html`<span class="mono">${isolated(name)}</span>` })}</p>
  <p>${t.rich('unknownOperator.howToAdd', { command: `noti-receiver operators add ${shellQuoted(name)} --sso --role viewer` })}</p>
  <p class="muted">${t('unknownOperator.tokenOperators')} <a href="/console/sign-in">${t('unknownOperator.signInLink')}</a>.</p>
</section>`,
  });
}

/**
 * The sign-on proxy named an operator who signs in with a token (the bootstrap admin among them):
 * the header never signs them in, their token does.
 */
export function tokenOperatorPage(name: string, t: Translator): string {
  return layout({
    title: t('tokenOperator.title'),
    section: null,
    viewer: null,
    t,
    body: html`<section class="card narrow">
  <h1>${t('tokenOperator.title')}</h1>
  <p role="alert">${t.rich('tokenOperator.signedOnAs', { name: html`<span class="mono">${isolated(name)}</span>` })}</p>
  <p>${t.rich('tokenOperator.howToSignIn', { link: html`<a href="/console/sign-in">${t('tokenOperator.title')}</a>` })}</p>
</section>`,
  });
}

/** The name as one shell word, so the command can be pasted as shown whatever the proxy sent. */
function shellQuoted(text: string): string {
  return /^[A-Za-z0-9@._+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
