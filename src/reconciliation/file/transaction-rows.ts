import { cellText, identifierText, kstInstant, wonAmount } from './cell-values';
import { cellProblem, readEach, transactionNumbers, type DataRow } from './data-rows';
import type { FileProblem, GatewayTransactionRow } from './gateway-rows';
import { gatewayStatus, saysCancel } from './status-text';

export const TRANSACTION_SHAPE = { amounts: ['amount', 'cancelledAmount'], times: ['at', 'atDay', 'atTime'] };

/**
 * Transaction list rows. A cancel row is one with its own cancel number or whose status or entry
 * type says 취소; its amount is what was cancelled, so a list that prints cancels negative gives
 * the same row as one that does not. A list without a status column lists what happened: its
 * payments read as approved and its cancels as cancelled.
 */
export function transactionRows(rows: readonly DataRow[]): { rows: GatewayTransactionRow[]; problems: FileProblem[] } {
  return readEach(rows, transactionRow);
}

function transactionRow(row: DataRow): { row: GatewayTransactionRow } | { problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  const { pgCno, cancelPgCno } = transactionNumbers(row, problems);
  const amount = wonAmount(row.cell('amount'));
  if (amount === null) problems.push(cellProblem(row, 'amount', 'empty_cell', 'the amount is empty'));
  if (amount === undefined) problems.push(cellProblem(row, 'amount', 'unreadable_amount', 'the amount is not a whole number of won'));
  const cancelledAmount = wonAmount(row.cell('cancelledAmount'));
  if (cancelledAmount === undefined) problems.push(cellProblem(row, 'cancelledAmount', 'unreadable_amount', 'the cancelled amount is not a whole number of won'));
  const at = row.cell('at') !== undefined ? kstInstant(row.cell('at')) : kstInstant(row.cell('atDay'), row.cell('atTime') ?? null);
  if (at === undefined) problems.push(cellProblem(row, row.cell('at') !== undefined ? 'at' : 'atDay', 'unreadable_time', 'the transaction time is not a date and time'));
  if (problems.length > 0) return { problems };
  const statusText = cellText(row.cell('status')) ?? cellText(row.cell('entryType'));
  const cancel = Boolean(cancelPgCno) || saysCancel(statusText) || saysCancel(cellText(row.cell('entryType')));
  const status = statusText === null ? (cancel ? 'cancelled' : 'approved') : gatewayStatus(statusText);
  return {
    row: {
      line: row.line,
      pgCno: pgCno!,
      cancelPgCno: cancelPgCno ?? null,
      kind: cancel ? 'cancel' : 'payment',
      shopOrderNo: identifierText(row.cell('shopOrderNo')) ?? null,
      approvalNo: identifierText(row.cell('approvalNo')) ?? null,
      amount: cancel ? Math.abs(amount!) : amount!,
      cancelledAmount: cancelledAmount === null ? null : Math.abs(cancelledAmount!),
      at: at!,
      status,
      statusText: statusText ?? '',
      method: cellText(row.cell('method')),
    },
  };
}
