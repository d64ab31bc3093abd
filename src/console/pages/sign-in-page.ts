import { html } from '../html';
import type { Locale } from '../i18n/locale';
import type { Translator } from '../i18n/translator';
import { layout } from './layout';

/**
 * The token alone: who signs in is the operator the token belongs to, never a name typed here.
 * Before sign-in there is no session to remember a language: the switch's choice travels in the
 * URL (`?lang=ko`) and in the form, and the session made by signing in keeps it.
 */
export function signInPage(options: { next: string; error?: string | null; t: Translator; chosen: Locale | null }): string {
  const { t } = options;
  const hrefOf = (locale: Locale) => `/console/sign-in?${new URLSearchParams({ next: options.next, lang: locale }).toString()}`;
  return layout({
    title: t('signIn.title'),
    section: null,
    viewer: null,
    t,
    languageHref: hrefOf,
    body: html`<section class="card narrow">
  <h1>${t('signIn.heading')}</h1>
  <p class="muted">${t.rich('signIn.intro')}</p>
  ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
  <form method="post" action="/console/sign-in" class="stack">
    <input type="hidden" name="next" value="${options.next}">
    ${options.chosen ? html`<input type="hidden" name="lang" value="${options.chosen}">` : ''}
    <label for="token">${t('signIn.token')}</label>
    <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
    <button type="submit" class="primary">${t('signIn.button')}</button>
  </form>
</section>`,
  });
}
