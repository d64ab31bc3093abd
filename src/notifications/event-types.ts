/** The gateway's event codes (`notiType`) and the names the internal queue knows them by. */
export const EVENT_TYPES = {
  '10': 'payment.approved',
  '20': 'payment.changed',
  '30': 'vaccount.deposited',
  '31': 'vaccount.deposit_cancelled',
  '40': 'escrow.changed',
  '50': 'refund.completed',
  '51': 'refund.transfer_failed',
  '70': 'unionpay.confirmed',
} as const;

export type NotiType = keyof typeof EVENT_TYPES;
export type EventType = (typeof EVENT_TYPES)[NotiType];

export const NOTI_TYPES = Object.keys(EVENT_TYPES) as NotiType[];

export function isNotiType(value: string): value is NotiType {
  return Object.prototype.hasOwnProperty.call(EVENT_TYPES, value);
}
