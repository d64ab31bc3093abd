import { nextPgCno } from '../src/simulator/notification-builders';
import { StoryOrder } from '../src/simulator/payment-stories';
import type { WireNotification } from '../src/simulator/wire-notification';

/**
 * One card payment and its one-won partial cancels, each under its own cancelPgCno and stating
 * what is left, a gateway second after the one before: an order whose history only grows, each
 * cancel the kind of input the fold steps (it comes after every other and moves its own amount).
 */
export class OneOrder {
  private readonly order: StoryOrder;
  private readonly pgCno = nextPgCno();
  private left: number;

  /** `inputs`: how many notifications the bench may send for it, the payment included. */
  constructor(inputs: number, readonly shopOrderNo = `BENCH-LEDGER-${process.pid}-${Date.now().toString(36)}`) {
    // Every stamp in the past, the last one a second before now.
    this.order = new StoryOrder(shopOrderNo, Date.now() - (inputs + 1) * 1000);
    this.left = inputs + 1000;
  }

  payment(): WireNotification {
    return this.order.approval(this.pgCno, this.left);
  }

  cancel(): WireNotification {
    this.left -= 1;
    return this.order.cancel(this.pgCno, 1, this.left);
  }
}
