import { html } from '../html';
import { layout } from './layout';

/** The token alone: who signs in is the operator the token belongs to, never a name typed here. */
export function signInPage(options: { next: string; error?: string | null }): string {
  return layout({
    title: 'Sign in',
    section: null,
    viewer: null,
    body: html`<section class="card narrow">
  <h1>Operator console</h1>
  <p class="muted">Sign in with your operator token (from <code>noti-receiver operators add</code>), or the bootstrap token (ADMIN_TOKEN, or the one the receiver logged at start).</p>
  ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
  <form method="post" action="/console/sign-in" class="stack">
    <input type="hidden" name="next" value="${options.next}">
    <label for="token">Token</label>
    <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
    <button type="submit" class="primary">Sign in</button>
  </form>
</section>`,
  });
}
