import { nextPgCno } from './notification-builders';
import { DEPOSIT, PRICE, type PaymentStory, type StoryOrder } from './payment-stories';

/**
 * A story told wrong on purpose, to rehearse one alarm: each opens exactly the discrepancy it is
 * named after on its own order, and nothing else.
 */
interface Fault {
  opens: string;
  /** Opens only once the order has been still for the receiver's LEDGER_GRACE_SECONDS. */
  afterGrace: boolean;
  /** Needs the order's expectation registered through the internal API (--api-url). */
  needsExpectation: boolean;
  tell(order: StoryOrder): Pick<PaymentStory, 'expectation' | 'steps'>;
}

const card = (expiresAt: string | null = null) => ({ amount: PRICE, currency: 'KRW', method: 'card' as const, expiresAt });

export const FAULTS = {
  // The shop expects 12,000 and the approval says 1,200: the classic tampered payment.
  'amount-mismatch': {
    opens: 'amount_mismatch', afterGrace: false, needsExpectation: true,
    tell: (order) => ({ expectation: card(), steps: [order.approval(nextPgCno(), PRICE / 10)] }),
  },
  // Paid after the expectation's expiresAt (a minute before the story began).
  'payment-after-expiry': {
    opens: 'payment_after_expiry', afterGrace: false, needsExpectation: true,
    tell: (order) => ({ expectation: card(new Date(order.startedAt.getTime() - 60_000).toISOString()), steps: [order.approval(nextPgCno(), PRICE)] }),
  },
  // Two approvals with two pgCnos for one order.
  'double-payment': {
    opens: 'duplicate_payment', afterGrace: false, needsExpectation: false,
    tell: (order) => ({ expectation: null, steps: [order.approval(nextPgCno(), PRICE), order.approval(nextPgCno(), PRICE)] }),
  },
  // A refund of more than was paid (event 50 alone: no event 20 whose remainder could disagree).
  'over-cancel': {
    opens: 'over_cancel', afterGrace: true, needsExpectation: false,
    tell: (order) => {
      const pgCno = nextPgCno();
      return { expectation: null, steps: [order.approval(pgCno, PRICE), order.refunded(pgCno, PRICE + 3000, nextPgCno())] };
    },
  },
  // A partial cancel of 3,000 of 12,000 whose remainder says 8,000.
  'remaining-mismatch': {
    opens: 'remaining_mismatch', afterGrace: true, needsExpectation: false,
    tell: (order) => {
      const pgCno = nextPgCno();
      return { expectation: null, steps: [order.approval(pgCno, PRICE), order.cancel(pgCno, 3000, PRICE - 3000 - 1000)] };
    },
  },
  // A refund whose payout fails (51) and is never repeated.
  'refund-fails': {
    opens: 'refund_transfer_failed', afterGrace: false, needsExpectation: false,
    tell: (order) => {
      const pgCno = nextPgCno();
      return { expectation: null, steps: [order.deposit(pgCno, DEPOSIT), order.cancel(pgCno, DEPOSIT, 0), order.transferFailed(pgCno, DEPOSIT)] };
    },
  },
} satisfies Record<string, Fault>;

export type FaultName = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

export function faultyStory(name: FaultName, order: StoryOrder): PaymentStory {
  return { shopOrderNo: order.shopOrderNo, title: name, ...FAULTS[name].tell(order) };
}

export function parseFaults(text: string): FaultName[] {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) {
    if (!(FAULT_NAMES as string[]).includes(name)) throw new Error(`unknown fault "${name}"; use one of ${FAULT_NAMES.join(', ')}`);
  }
  return [...new Set(names)] as FaultName[];
}
