import type { NotiType } from '../notifications/event-types';
import { kstStamp } from '../notifications/kst-date';
import {
  ESCROW_STATUSES,
  approvalNotification,
  basketApprovalNotification,
  changeNotification,
  depositCancelNotification,
  depositNotification,
  escrowNotification,
  nextPgCno,
  refundNotification,
  transferFailedNotification,
  unionPayForm,
  type JsonNotification,
} from './notification-builders';
import type { WireNotification } from './wire-notification';

/** What the shop registers before its customer pays (through the internal API), for the faults that need one. */
export interface StoryExpectation {
  amount: number;
  currency: string;
  method: 'card' | 'vaccount' | 'wallet' | 'other';
  expiresAt: string | null;
}

/**
 * One order's notifications in the order the gateway sends them (an approval before its cancels,
 * a deposit before its cancellation, a refund's failure before the repeated refund), each stamped a
 * second after the one before, so the ledger reads them in that order whatever the arrival order.
 */
export interface PaymentStory {
  shopOrderNo: string;
  /** The event type the story was chosen for, or the fault it acts out. */
  title: string;
  expectation: StoryExpectation | null;
  steps: WireNotification[];
}

const PRICE = 12000;
const DEPOSIT = 45000;
/** Partial cancels of one payment per story: two share its pgCno, each with its own cancelPgCno. */
const PARTIAL_CANCELS = 2;
/** Every third approval story is a basket payment, so basket fields are always exercised. */
const BASKET_EVERY = 3;

/** An order of the simulator: its number, and the gateway's clock for its notifications. */
export class StoryOrder {
  private step = 0;
  constructor(
    readonly shopOrderNo: string,
    private readonly startMs: number,
  ) {}

  /** The next notification's own time (the gateway's KST stamp), one second after the previous. */
  nextStamp(): string {
    const at = new Date(this.startMs + this.step * 1000);
    this.step += 1;
    return kstStamp(at);
  }

  /** When the story began: a moment before its first notification. */
  get startedAt(): Date {
    return new Date(this.startMs);
  }

  json(notification: JsonNotification): WireNotification {
    const ordered = { ...notification, shopOrderNo: this.shopOrderNo };
    return {
      notiType: notification.notiType as NotiType,
      body: Buffer.from(JSON.stringify(ordered), 'utf8'),
      contentType: 'application/json; charset=utf-8',
      ackForm: 'json',
    };
  }

  approval(pgCno: string, amount: number, extra: Partial<JsonNotification> = {}): WireNotification {
    return this.json(approvalNotification({ pgCno, amount: String(amount), transactionDate: this.nextStamp(), ...extra }));
  }

  deposit(pgCno: string, amount: number): WireNotification {
    return this.json(depositNotification({ pgCno, amount: String(amount), depositDate: this.nextStamp() }));
  }

  /** Event 20: `cancelAmount` of payment `pgCno`, and what the gateway says is left of it. */
  cancel(pgCno: string, cancelAmount: number, remainAmount: number, cancelPgCno = nextPgCno()): WireNotification {
    const amount = String(cancelAmount);
    const full = remainAmount === 0;
    return this.json(changeNotification({
      pgCno, cancelPgCno, cancelAmount: amount, amount, cancelRemainAmount: String(remainAmount), cancelDate: this.nextStamp(),
      statusCode: full ? 'TS04' : 'TS06', statusMessage: full ? '매입취소' : '부분매입취소',
    }));
  }

  refunded(pgCno: string, amount: number, cancelPgCno: string): WireNotification {
    return this.json(refundNotification({ pgCno, cancelPgCno, amount: String(amount), refundDate: this.nextStamp() }));
  }

  transferFailed(pgCno: string, amount: number): WireNotification {
    return this.json(transferFailedNotification({ pgCno, amount: String(amount), refundDate: this.nextStamp() }));
  }
}

/**
 * A coherent story that features `type`: every order it leaves is whole (paid, partly or fully
 * cancelled, refunded), so it opens no discrepancy, whatever the grace period.
 */
export function coherentStory(type: NotiType, index: number, order: StoryOrder): PaymentStory {
  const pgCno = nextPgCno();
  const story = (steps: WireNotification[]): PaymentStory => ({ shopOrderNo: order.shopOrderNo, title: `event ${type}`, expectation: null, steps });
  switch (type) {
    case '10': {
      const basket = index % BASKET_EVERY === BASKET_EVERY - 1;
      const approval = basket ? basketApprovalNotification(3, { pgCno, transactionDate: order.nextStamp() }) : approvalNotification({ pgCno, transactionDate: order.nextStamp() });
      return story([order.json({ ...approval, amount: String(PRICE) })]);
    }
    case '20': {
      const approval = order.approval(pgCno, PRICE);
      const cancels = Array.from({ length: PARTIAL_CANCELS }, (_, i) => order.cancel(pgCno, 1000, PRICE - 1000 * (i + 1)));
      return story([approval, ...cancels]);
    }
    case '30':
      return story([order.deposit(pgCno, DEPOSIT)]);
    case '31':
      return story([order.deposit(pgCno, DEPOSIT), order.json(depositCancelNotification({ pgCno, amount: String(DEPOSIT), cancelDate: order.nextStamp() }))]);
    case '40': {
      const approval = order.approval(pgCno, PRICE, { escrowUsed: 'Y' });
      const statuses = ESCROW_STATUSES.map((status) => order.json(escrowNotification({ pgCno, ...status, escrowChangeDate: order.nextStamp() })));
      return story([approval, ...statuses]);
    }
    case '50': {
      // A virtual-account payment cancelled: the refund to the customer's account completes (50).
      const cancelPgCno = nextPgCno();
      return story([order.deposit(pgCno, DEPOSIT), order.cancel(pgCno, DEPOSIT, 0, cancelPgCno), order.refunded(pgCno, DEPOSIT, cancelPgCno)]);
    }
    case '51': {
      // The refund's payout fails (51), the merchant repeats it, and it completes (50).
      const cancelPgCno = nextPgCno();
      return story([
        order.deposit(pgCno, DEPOSIT), order.cancel(pgCno, DEPOSIT, 0, cancelPgCno),
        order.transferFailed(pgCno, DEPOSIT), order.refunded(pgCno, DEPOSIT, cancelPgCno),
      ]);
    }
    case '70': {
      const form = unionPayForm({ cno: pgCno, order_no: order.shopOrderNo });
      return story([{ notiType: '70', body: form.body, contentType: form.contentType, ackForm: 'form' }]);
    }
  }
}

export { DEPOSIT, PRICE };
