import type { SummaryDay } from '../../ledger/summary/summary-days';
import { kstTime } from '../../console/format';
import { moneyText } from '../order-money';

const signed = (minor: number, currency: string) => (minor >= 0 ? `+${moneyText(minor, currency)}` : moneyText(minor, currency));

/**
 * What `summary` prints below its table about closes and the settlement statement: the closed
 * days (who closed them, what moved them later and on which day), the adjustments booked on each
 * day naming the day they adjust, and the statement's fees and payouts.
 */
export function closeSections(days: readonly SummaryDay[]): string[] {
  const at = (d: SummaryDay) => `${d.date}  ${d.mallId}  ${d.currency}`;
  const closed = days.filter((d) => d.closed).map((d) => `${at(d)}  closed by ${d.closed!.by} at ${kstTime(d.closed!.at)}${(d.adjustedLater ?? [])
    .map((a) => `; adjusted later (on ${a.on}): ${signed(a.net, d.currency)}`).join('')}`);
  const adjustments = days.flatMap((d) => (d.adjustments ?? []).map((a) => `${at(d)}  adjusts ${a.adjusts}: ${signed(a.net, d.currency)}; net with adjustments ${moneyText(d.netWithAdjustments ?? d.net, d.currency)}`));
  const fees = days.filter((d) => d.settlement).map((d) => {
    const s = d.settlement!;
    return `${at(d)}  ${s.count} rows, gross ${moneyText(s.gross, d.currency)}, fees ${moneyText(s.fee, d.currency)} + VAT ${moneyText(s.feeVat, d.currency)}, expected payout ${moneyText(s.payout, d.currency)}`;
  });
  const payouts = days.filter((d) => d.payouts).map((d) => `${at(d)}  paid out ${moneyText(d.payouts!.amount, d.currency)} for ${d.payouts!.fromDays
    .map((f) => `${f.day ?? 'day not stated'} (${f.count} × ${moneyText(f.amount, d.currency)})`).join(', ')}`);
  return [
    ...(closed.length === 0 ? [] : [`closed days (figures as they were closed)\n${closed.join('\n')}`]),
    ...(adjustments.length === 0 ? [] : [`adjustments of closed days, booked on the day they arrived\n${adjustments.join('\n')}`]),
    ...(fees.length === 0 ? [] : [`settlement statement, by transaction day\n${fees.join('\n')}`]),
    ...(payouts.length === 0 ? [] : [`payouts, by payout day\n${payouts.join('\n')}`]),
  ];
}
