import type { ClosedDay } from '../../ledger/projector/ledger-store';
import { html, type SafeHtml } from '../html';
import { actionButton, type Viewer, wordsOf } from './layout';

export interface DayCloseState {
  day: string;
  /** The page's mall, '' for every mall. */
  mallId: string;
  /** Whether the day is over in Korea: only then can it be closed. */
  over: boolean;
  /** The closes of this day that cover the page's scope (the mall's own, the store's). */
  closes: ClosedDay[];
}

/** The close that covers the page: the mall's own, else the store's; on a page of every mall, the store's alone. */
function coveringClose(state: DayCloseState): ClosedDay | null {
  const own = state.closes.find((c) => c.mallId === (state.mallId || null));
  return own ?? state.closes.find((c) => c.mallId === null) ?? null;
}

/**
 * Whether the day is closed, by whom and when, and the button that changes it: `Close` for an
 * operator on a day that is over, `Reopen` for an admin on a closed one. Each asks for a
 * confirmation on a page of its own before anything changes.
 */
export function dayCloseBar(viewer: Viewer, state: DayCloseState): SafeHtml {
  const t = wordsOf(viewer);
  const close = coveringClose(state);
  const hidden: Record<string, string> = state.mallId ? { mall: state.mallId } : {};
  if (close) {
    const words = close.mallId === null ? 'summary.close.closedEveryMall' : 'summary.close.closedBy';
    const reopenScope: Record<string, string> = close.mallId === null ? {} : { mall: close.mallId };
    return html`<div class="card day-close closed" data-closed="true"><p><strong class="badge closed-mark">${t('summary.closedMark')}</strong> ${t(words, { by: close.closedBy, at: t.time(close.closedAt) })}</p>
${actionButton(viewer, `/console/summary/${state.day}/reopen`, t('summary.close.reopen'), reopenScope, 'danger', 'admin')}</div>`;
  }
  const label = state.mallId ? t('summary.close.buttonMall', { mall: state.mallId }) : t('summary.close.button');
  return html`<div class="card day-close" data-closed="false"><p class="muted">${t(state.over ? 'summary.close.open' : 'summary.close.notOverYet')}</p>
${state.over ? actionButton(viewer, `/console/summary/${state.day}/close`, label, hidden) : ''}</div>`;
}
