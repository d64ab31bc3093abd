import { PG, approval, partialCancel } from './ledger-fixtures';
import { compute, given } from './ledger-specification';

describe("the ledger's sums are exact", () => {
  it('two approvals of the largest 12-digit amount add up to the exact figure', () => {
    const first = approval({ pgCno: PG.card, amount: 999_999_999_999, at: 1 });
    const second = approval({ pgCno: PG.second, amount: 999_999_999_998, at: 2 });
    const cancel = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 1, remainAmount: 999_999_999_998, at: 3 });
    given(first, second).when(cancel).then({ approved: 1_999_999_999_997, cancelled: 1, remaining: 1_999_999_999_996 });
  });

  it('amounts stored before the 12-digit refusal that would sum past 2^53 are refused by the fold (the order becomes ledger_error), never rounded', () => {
    // 9007199254740991 + 9007199254740990 is 18014398509481981; a double says ...980.
    const storedBefore = (pgCno: string, amount: number, at: number) => ({ ...approval({ pgCno, amount: 1, at }), amount });
    const facts = [storedBefore(PG.card, 9007199254740991, 1), storedBefore(PG.second, 9007199254740990, 2)];
    expect(() => compute(facts)).toThrow(/past 2\^53/);
  });
});
