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
  gateway_amount_differs: {
    name: 'Amount differs from the gateway\'s list',
    line: 'The gateway\'s transaction list shows another amount than the notification this receiver accepted.',
    means: 'An imported transaction list (the merchant portal\'s own record) lists the payment or cancel with a different amount than its notification. Notifications carry no signature: the list is the independent record, so the notified amount may have been tampered with.',
    console: [
      'Open the order: the discrepancy shows the listed and the notified amount, the pgCno and the list\'s row number.',
      'Do not ship or refund on the notified amount until it is settled.',
      RESOLVE,
    ],
    portal: [
      'Search the transaction by its pgCno (or cancelPgCno): the amount the gateway really booked.',
      'If the portal agrees with the list, treat the notification as forged or wrong and settle the order with the gateway.',
    ],
    engineers: ['Read the order in a terminal: `noti-receiver orders show <shopOrderNo>`; the day\'s match: `noti-receiver reconcile list --day <YYYY-MM-DD>`.', RESOLVE_CLI],
  },
  gateway_status_differs: {
    name: 'Status differs from the gateway\'s list',
    line: 'The gateway\'s transaction list says cancelled or failed where the ledger holds the payment, or the reverse.',
    means: 'An imported transaction list gives the transaction another status than the notifications this receiver accepted: a cancel the receiver never heard of, a payment the gateway failed, or a cancel the gateway does not show.',
    console: [
      'Open the order: the discrepancy shows the listed status and the ledger\'s, and the pgCno.',
      'If a cancel is missing here, have the gateway send its notification again (see the portal steps); the ledger closes the discrepancy when it arrives.',
      RESOLVE,
    ],
    portal: [
      'Search the transaction by its pgCno: its status and cancels as the gateway booked them.',
      'Transaction management → notification inquiry: send the missing notification again.',
    ],
    engineers: ['The day\'s match in a terminal: `noti-receiver reconcile list --day <YYYY-MM-DD>`.', RESOLVE_CLI],
  },
  notification_missing: {
    name: 'Notification missing',
    line: 'The gateway lists a transaction whose notification this receiver never accepted.',
    means: 'An imported transaction list has a payment or cancel (its pgCno or cancelPgCno) the receiver never accepted: the gateway gave up retrying, the notification was refused, or it never reached this service. The order\'s figures miss it.',
    console: [
      'Open the order: the discrepancy shows the pgCno, the cancelPgCno for a cancel, the listed amount and the list\'s row number. A row of a file with no order number for it has no order yet: Reconcile lists it with "no order number in the file", its pgCno, amount and row.',
      'If the order also shows a refused notification, fix its cause first (see that playbook).',
      'Have the gateway send the notification again (portal steps below): when it is accepted, the ledger closes this discrepancy by itself.',
      RESOLVE,
    ],
    portal: [
      'Transaction management → notification inquiry: search the pgCno and send the notification again.',
    ],
    engineers: ['Check the notification URL, the allowlist and Rejections (`noti-receiver rejections list`) for why it did not arrive.', RESOLVE_CLI],
  },
  not_in_gateway_list: {
    name: 'Not in the gateway\'s list',
    line: 'A notification accepted here is absent from the gateway\'s transaction list for its day: possibly forged.',
    means: 'The receiver accepted a payment or cancel on a day an imported transaction list covers, and the gateway does not list it. Notifications carry no signature (the source address is the only check): a payment the gateway does not know is the sign of a forged notification.',
    console: [
      'Open the order: the discrepancy shows the pgCno, the day and the notified amount.',
      'Do not ship or refund on it until the gateway confirms the transaction.',
      RESOLVE,
    ],
    portal: [
      'Search the pgCno: if the gateway does not know it, the notification was forged; report it and keep the order unpaid.',
      'If the gateway lists it on another day, import that day\'s list: the ledger closes the discrepancy when a list shows it.',
    ],
    engineers: ['Look up the notification\'s source address in the event page or `noti-receiver events show <id>`; check `EXTRA_ALLOWED_IPS` and `TRUST_PROXY`.', RESOLVE_CLI],
  },
  payout_does_not_add_up: {
    name: 'Payout does not add up',
    line: 'A row of the gateway\'s settlement statement pays out another sum than its gross less the fee and the fee\'s VAT.',
    means: 'An imported settlement statement states, for one payment or cancel, a payout that is not its gross less its fee and the VAT on the fee. Amounts are whole won, so the row is simply wrong: the gateway pays out more or less than its own figures say, and the payout day\'s deposit will not match the statement.',
    console: [
      'Open the order: the discrepancy shows the pgCno (the cancelPgCno for a cancel), the gross, the fee, the VAT, the payout, what they compute to, the payout day and the statement\'s row number.',
      'The payout day\'s page under Day\'s money lists the whole payout that does not add up.',
      'When the gateway issues a corrected statement, upload it on Reconcile: the ledger closes this discrepancy by itself once the corrected row adds up.',
      RESOLVE,
    ],
    portal: [
      'Open the settlement statement of the payout day and find the row by its pgCno: compare its fee and payout with the contract\'s rate.',
      'Ask the gateway to correct the payout (or explain the difference), then download the corrected statement.',
    ],
    engineers: ['The payout in a terminal: `noti-receiver summary --from <payoutDay> --to <payoutDay>`; the order: `noti-receiver orders show <shopOrderNo>`.', RESOLVE_CLI],
  },
  settlement_amount_differs: {
    name: 'Amount differs from the settlement statement',
    line: 'The gateway\'s settlement statement settles another amount than the notification this receiver accepted.',
    means: 'An imported settlement statement has a row for the payment (by pgCno) or the cancel (by cancelPgCno) whose gross is not the amount the ledger holds from its notification. A cancel\'s gross is negative (the gateway takes the money back), so a cancel of 5,000 matches -5,000. Notifications carry no signature: the statement is the gateway\'s independent word on what it pays out.',
    console: [
      'Open the order: the discrepancy shows the statement\'s gross, the notified amount, the pgCno and the statement\'s row number; the section "The gateway\'s transaction lists" shows the statement\'s rows.',
      'Do not ship or refund on the notified amount until it is settled.',
      'If the statement was wrong and the gateway issues a corrected one, upload it on Reconcile: the ledger closes this discrepancy by itself.',
      RESOLVE,
    ],
    portal: [
      'Search the transaction by its pgCno (or cancelPgCno): the amount the gateway really booked and settles.',
      'If the portal agrees with the statement, treat the notification as forged or wrong and settle the order with the gateway.',
    ],
    engineers: ['The order in a terminal: `noti-receiver orders show <shopOrderNo>`; the day\'s match: `noti-receiver reconcile list --day <YYYY-MM-DD>`.', RESOLVE_CLI],
  },
};
