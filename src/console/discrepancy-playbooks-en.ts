import type { Playbook, PlaybookKind } from './playbook';

/** The Note and Resolve step every kind ends on, in the console. */
const RESOLVE =
  'When the money is settled, write what was done in the Note field beside the discrepancy (on the order page or on Discrepancies) and press Resolve (role operator). The note is kept under your name in the Audit; resolving records a decision, it never moves money.';
/** The same from a terminal, for engineers. */
const RESOLVE_CLI = 'Resolve from a terminal: `noti-receiver discrepancies resolve <id> --note "…"` (or `POST /v1/discrepancies/<id>/resolve`).';
const CANCEL_API = 'Cancel through the internal API instead of the portal: `POST /v1/wallet-b/cancellations` with the `pgCno` and `reviseTypeCode` `40` (a full cancel).';

/** A payment this service can cancel is cancelled from its order's page, not the portal. */
const CANCEL_HERE = "Where the payment to cancel has a `Cancel` button on the order's page (wallet, UnionPay VAN), cancel it there in this console (an operator who may cancel, or an admin). Only payments without the button (cards, virtual accounts, …) are cancelled in the gateway's merchant portal as below.";

export const PLAYBOOKS_EN: Record<PlaybookKind, Playbook> = {
  amount_mismatch: {
    name: 'Amount mismatch',
    line: 'The gateway reports a payment of another amount than the shop expected.',
    means: 'A payment or deposit arrived for a different amount than the expectation. Notifications carry no signature, so a changed amount is the classic sign of a tampered payment window; it can also be an expectation registered with the wrong amount.',
    console: [
      'Open the order: its figures show the expected and the approved amount, its timeline the payment with its pgCno.',
      'Do not ship while the approved amount is less than the order\'s price.',
      CANCEL_HERE,
      RESOLVE,
    ],
    portal: [
      'Search the payment by its pgCno: the amount the gateway really approved.',
      'If it is less than the order\'s price: cancel the payment in full there, and ask the customer to pay again.',
      'If it is the order\'s price, the shop registered a wrong expectation: the payment stands (say so in the note).',
    ],
    engineers: [CANCEL_API, 'Read the order in a terminal: `noti-receiver orders show <shopOrderNo>`.', RESOLVE_CLI],
  },
  duplicate_payment: {
    name: 'Double payment',
    line: 'The order was paid more than once and holds more than it should.',
    means: 'Two or more distinct payments (different pgCno) for one order leave more money than expected after cancels: the customer was charged twice.',
    console: [
      'Open the order: its timeline lists every payment with its pgCno and amount.',
      'Choose the payment to keep (usually the first) and note the pgCno of the extra one.',
      'After the cancel, the gateway\'s cancel notification closes the discrepancy by itself (resolved by `ledger`). Resolve by hand only if the money went back another way (a bank transfer):',
      CANCEL_HERE,
      RESOLVE,
    ],
    portal: [
      'Search both payments by their pgCno and make sure no cancel of the extra one is under way.',
      'Cancel the extra payment in full.',
    ],
    engineers: [CANCEL_API, RESOLVE_CLI],
  },
  over_cancel: {
    name: 'Over-cancel',
    line: 'More was cancelled than was ever paid for this order.',
    means: 'The sum of cancels exceeds what was approved and deposited, after the grace period in which a late approval could still arrive. A late approval closes it automatically.',
    console: [
      'Open the order: compare its cancels with its payments in the timeline.',
      'Open Rejections and search the order number: a refused approval of this order is the usual cause. If one is there and the setting that refused it is fixed, press Reprocess on it; the discrepancy then closes by itself.',
      RESOLVE,
    ],
    portal: [
      'Search the payment by its pgCno: does it exist, and what does it show as cancelled?',
      'If the gateway really refunded more than was paid, settle the difference with the gateway.',
    ],
    engineers: [
      'A payment stored before the ledger existed is missing from it: `noti-receiver ledger backfill`.',
      'Reprocess from a terminal: `noti-receiver rejections list`, then `noti-receiver rejections reprocess <id>`.',
      RESOLVE_CLI,
    ],
  },
  remaining_mismatch: {
    name: 'Remaining amount mismatch',
    line: 'After a cancel, the balance the gateway reports differs from the ledger\'s.',
    means: 'The latest partial cancel states a remaining amount (cancelRemainAmount) that differs from what the ledger computes from the payments and cancels it received, after the grace period: a notification is probably missing.',
    console: [
      'Open the order: its timeline lists the cancels the ledger received.',
      'Look in Rejections and Conflicts for notifications of this order that were refused or differed; Reprocess a refused one once its cause is fixed.',
      RESOLVE,
    ],
    portal: [
      'Search the payment by its pgCno and compare its cancel history with the order\'s timeline: the portal\'s remainder is the one to trust.',
      'A cancel the portal shows and the order does not is a missing notification: ask the gateway to resend it, or settle the difference so the customer pays what the shop charged.',
    ],
    engineers: ['Compare in a terminal: `noti-receiver orders show <shopOrderNo>` and `noti-receiver events list --order <shopOrderNo>`.', RESOLVE_CLI],
  },
  refund_transfer_failed: {
    name: 'Refund transfer failed',
    line: 'A refund could not be paid out to the customer and must be repeated.',
    means: 'Event 51: the gateway could not transfer a refund (a closed or wrong bank account, typically for a virtual account). The customer has not received the money.',
    console: [
      'Open the order: the timeline shows the failed refund and its pgCno; the details give the bank\'s failure code (resCd).',
      'Contact the customer for a correct refund account.',
      'A completed refund for the same payment closes the discrepancy by itself; if the money went back another way:',
      RESOLVE,
    ],
    portal: [
      'Search the refund by its pgCno and read the bank\'s reason.',
      'Repeat the refund there with the corrected account (or pay the customer directly).',
    ],
    engineers: [RESOLVE_CLI],
  },
  unexpected_payment: {
    name: 'Unexpected payment',
    line: 'A payment arrived for an order the shop never registered.',
    means: 'With `LEDGER_REQUIRE_EXPECTATION=true`, a payment or deposit came for an order without an expectation: the shop did not create it, or forgot to register it.',
    console: [
      'Open the order: the mall id and the payment with its pgCno.',
      'Look the order number up in the shop\'s own system; check the mall id is yours.',
      CANCEL_HERE,
      RESOLVE,
    ],
    portal: [
      'Search the payment by its pgCno.',
      'If nobody ordered it: cancel the payment in full there.',
    ],
    engineers: [
      'If the order is real, register its expectation: `PUT /v1/orders/<mallId>/<shopOrderNo>/expectation` (the amount is then checked as usual).',
      CANCEL_API,
      RESOLVE_CLI,
    ],
  },
  payment_after_expiry: {
    name: 'Payment after expiry',
    line: 'The customer paid after the order had expired.',
    means: 'A payment or deposit happened after the expectation\'s `expiresAt`: the shop may already have released the stock or cancelled the order.',
    console: [
      'Open the order: the payment\'s time beside the expectation\'s expiry.',
      'Ask the shop whether it still holds the order (stock, shipping). If it can still deliver, resolve saying so.',
      CANCEL_HERE,
      RESOLVE,
    ],
    portal: [
      'If the shop cannot deliver: search the payment by its pgCno and cancel it (a virtual account deposit is refunded there).',
    ],
    engineers: [CANCEL_API, RESOLVE_CLI],
  },
  conflicting_notification: {
    name: 'Conflicting notification',
    line: 'The gateway resent a notification with different amounts or result.',
    means: 'A redelivery under a stored key differs in its money fields (amount, cancel amounts, remainders, resCd) or names another order (one pgCno under two order numbers: shown on both orders). The first stored version still counts; both versions are in the details.',
    console: [
      'Open the order, then Conflicts: both versions are shown field by field.',
      'If the first version is right, resolve saying so. If the later one is right, the ledger still counts the first: correct the shop\'s records by hand.',
      RESOLVE,
    ],
    portal: [
      'Search the payment by its pgCno: which version is right.',
      'If the later one is, ask the gateway to correct its records, and settle the money as the right figure requires.',
    ],
    engineers: ['Side by side in a terminal: `noti-receiver conflicts list`, then `noti-receiver conflicts show <id>`.', RESOLVE_CLI],
  },
  refused_notification: {
    name: 'Refused notification',
    line: 'A notification for this order was refused as invalid and is not counted.',
    means: 'The receiver refused a notification naming this order (a wrong mallId, a bad field). It is kept in Rejections; the order\'s figures miss it until it is accepted.',
    console: [
      'Open the order, then Rejections: the refused notification and why.',
      'If a setting refused it, ask an engineer to fix it; then press Reprocess on the rejection. Once it is accepted the discrepancy closes by itself.',
      'A body the gateway got wrong stays refused: settle the order with the gateway, then:',
      RESOLVE,
    ],
    portal: [
      'Search the payment by its pgCno: what the refused notification should have said.',
    ],
    engineers: [
      'The usual causes are settings: `MALL_IDS`, `GATEWAY_ENV`, the allowlist; fix them and restart.',
      'Reprocess from a terminal: `noti-receiver rejections show <id>`, then `noti-receiver rejections reprocess <id>`.',
      RESOLVE_CLI,
    ],
  },
  unknown_refund_amount: {
    name: 'Unknown refund amount',
    line: 'A refund or cancel came without an amount the ledger could work out.',
    means: 'An event 50 or 20 states no amount, and none can be derived from what it names (the deposit, the cancel it confirms, the remainder of its payment). The order\'s figures leave it out.',
    console: [
      'Open the order: the timeline shows the refund or cancel and its pgCno.',
      RESOLVE,
    ],
    portal: [
      'Search the refund or cancel by its pgCno (or cancelPgCno) and read its amount; give that amount in the note.',
      'If the order\'s figures need it, ask the gateway to resend the notification with its amount.',
    ],
    engineers: [RESOLVE_CLI],
  },
};
