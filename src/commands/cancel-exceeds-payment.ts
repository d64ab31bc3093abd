import type { CancelRefusal } from '../store/command-types';

/**
 * A cancel that does not fit in what is left of its payment once the cancels already recorded
 * (those still waiting on the gateway included) are counted: nothing was recorded or sent.
 */
export class CancelExceedsPayment extends Error {
  override readonly name = 'CancelExceedsPayment';
  constructor(readonly refusal: CancelRefusal) {
    const asked = refusal.amount === null ? 'a cancel of all that is left' : `a cancel of ${refusal.amount}`;
    super(
      refusal.left <= 0
        ? `${asked} of pgCno ${refusal.pgCno} refused: nothing is left of the payment once the cancels already recorded are counted; nothing was sent`
        : `${asked} of pgCno ${refusal.pgCno} refused: ${refusal.left} (minor units) is left of the payment once the cancels already recorded are counted; nothing was sent`,
    );
  }
}
