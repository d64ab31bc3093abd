import { html, isolated } from '../html';
import { layout, type Viewer } from './layout';

/** A signed-in operator asked for something their role may not do. */
export function forbiddenPage(viewer: Viewer, message: string): string {
  return layout({ title: 'Not allowed', section: null, viewer, body: html`<h1>Not allowed</h1><p role="alert">${message}</p>` });
}

/**
 * The sign-on proxy named someone who is no operator here. The name is shown (as text: it is the
 * proxy's header, which a person chose) so they can tell an admin exactly what to add.
 */
export function unknownOperatorPage(name: string): string {
  return layout({
    title: 'Not an operator',
    section: null,
    viewer: null,
    body: html`<section class="card narrow">
  <h1>Not an operator</h1>
  <p role="alert">You are signed on as <strong class="mono">${isolated(name)}</strong>, who is not an operator of this console.</p>
  <p>An admin can add you on the Operators page or with <code>noti-receiver operators add ${shellQuoted(name)} --sso --role viewer</code>.</p>
  <p class="muted">Operators with a token can <a href="/console/sign-in">sign in with it</a>.</p>
</section>`,
  });
}

/**
 * The sign-on proxy named an operator who signs in with a token (the bootstrap admin among them):
 * the header never signs them in, their token does.
 */
export function tokenOperatorPage(name: string): string {
  return layout({
    title: 'Sign in with your token',
    section: null,
    viewer: null,
    body: html`<section class="card narrow">
  <h1>Sign in with your token</h1>
  <p role="alert">You are signed on as <strong class="mono">${isolated(name)}</strong>, an operator who signs in with a token here, not through the sign-on proxy.</p>
  <p><a href="/console/sign-in">Sign in with your token</a>, or ask an admin to register you for single sign-on instead.</p>
</section>`,
  });
}

/** The name as one shell word, so the command can be pasted as shown whatever the proxy sent. */
function shellQuoted(text: string): string {
  return /^[A-Za-z0-9@._+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
