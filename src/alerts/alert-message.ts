import { formatMoney } from '../money/format-money';
import type { Alert } from './alert';
import { shownAsStored, shownField } from './alert-field';
import { ALERT_TEXTS, type AlertLanguage, type AlertTexts } from './alert-texts';

export interface AlertMessage {
  subject: string;
  /**
   * Plain text, the same for every channel: what a notification controls in it is already stripped
   * of control characters and masked; each channel escapes it for its own markup.
   */
  text: string;
}

export interface MessageOptions {
  language: AlertLanguage;
  /** ADMIN_PUBLIC_URL: links to the console's pages; without it the message names the mall and order only. */
  publicUrl: URL | null;
  /** LEDGER_DEFAULT_CURRENCY: amounts of an order that names no currency. */
  defaultCurrency: string;
}

/**
 * One message for the alerts a channel sends at once: one alert as itself, several as a digest
 * (`total` counts those the message does not list).
 */
export function alertMessage(alerts: readonly Alert[], total: number, options: MessageOptions): AlertMessage {
  const t = ALERT_TEXTS[options.language];
  const blocks = alerts.map((alert) => alertBlock(alert, t, options));
  const more = total > alerts.length ? [t.more(total - alerts.length)] : [];
  if (alerts.length === 1 && total === 1) {
    return { subject: `[${t.product}] ${blocks[0]!.title}`, text: [blocks[0]!.title, ...blocks[0]!.lines].join('\n') };
  }
  const text = [t.digest(total), '', ...blocks.flatMap((b) => [`• ${b.title}`, ...b.lines.map((l) => `  ${l}`), '']), ...more];
  return { subject: `[${t.product}] ${t.digest(total)}`, text: text.join('\n').trimEnd() };
}

/** The playbook of a discrepancy's kind: a link to its section, or where to find it in the console. */
function whatToDo(kind: string, t: AlertTexts, options: MessageOptions): string {
  return options.publicUrl ? `${t.whatToDo}: ${options.publicUrl.origin}/console/playbooks#${encodeURIComponent(kind)}` : t.whatToDoWithoutLink;
}

/** `T0001234 / ORD-1`: the order as a notification named it, shown safe (alert-field.ts). */
function orderText(mallId: string, shopOrderNo: string): string {
  return `${shownField('mallId', mallId)} / ${shownField('shopOrderNo', shopOrderNo)}`;
}

function alertBlock(alert: Alert, t: AlertTexts, options: MessageOptions): { title: string; lines: string[] } {
  const link = (path: string) => (options.publicUrl ? [`${options.publicUrl.origin}/console/${path}`] : []);
  // An order's page is named by its mall and number: when either is masked in the message, the
  // link goes to the list that holds it instead of carrying the number whole in its address.
  const orderPath = (mallId: string, shopOrderNo: string, otherwise: string) =>
    shownAsStored('mallId', mallId) && shownAsStored('shopOrderNo', shopOrderNo) ? `orders/${encodeURIComponent(mallId)}/${encodeURIComponent(shopOrderNo)}` : otherwise;
  const at = `${t.at}: ${t.time(alert.at)}`;
  switch (alert.kind) {
    case 'discrepancy': {
      const kind = (t.kinds as Record<string, string>)[alert.discrepancyKind] ?? alert.discrepancyKind;
      const currency = alert.currency ?? options.defaultCurrency;
      const amounts = Object.entries(alert.amounts).map(([name, minor]) => `${t.amounts[name] ?? name} ${formatMoney(minor, currency, t.locale)}`);
      return {
        title: `${t.discrepancy}: ${kind} (${alert.discrepancyKind})`,
        lines: [`${t.order}: ${orderText(alert.mallId, alert.shopOrderNo)}`, ...(amounts.length > 0 ? [amounts.join(' · ')] : []), at,
          `${t.discrepancyId}: ${alert.discrepancyId}`, ...link(orderPath(alert.mallId, alert.shopOrderNo, 'discrepancies')), whatToDo(alert.discrepancyKind, t, options)],
      };
    }
    case 'ledger_error':
      return {
        title: `${t.ledgerError} (ledger_error): ${orderText(alert.mallId, alert.shopOrderNo)}`,
        lines: [`${t.order}: ${orderText(alert.mallId, alert.shopOrderNo)}`, t.ledgerErrorLine, at, ...link(orderPath(alert.mallId, alert.shopOrderNo, 'orders?status=ledger_error'))],
      };
    case 'dead_event': {
      const order = alert.mallId !== null && alert.shopOrderNo !== null ? [`${t.order}: ${orderText(alert.mallId, alert.shopOrderNo)}`]
        : alert.mallId !== null ? [`${t.order}: ${shownField('mallId', alert.mallId)}`] : [];
      return {
        title: `${alert.simulated === true ? `[${t.simulated}] ` : ''}${t.deadEvent} (dead): ${alert.eventType ?? ''} ${alert.eventId}`.replace('  ', ' '),
        lines: [
          `${t.event}: ${alert.eventId}${alert.eventType ? ` (${alert.eventType})` : ''}${alert.attempts !== null ? `, ${t.attempts(alert.attempts)}` : ''}`,
          ...order,
          // The only alert a simulated order gets (its discrepancies wake nobody): said, so no one looks for money that never moved.
          ...(alert.simulated === true ? [t.simulatedLine] : []),
          t.deadEventLine,
          at,
          ...link(`events/${encodeURIComponent(alert.eventId)}`),
        ],
      };
    }
  }
}
