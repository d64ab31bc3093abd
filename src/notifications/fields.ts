/**
 * Field catalogue from the gateway's interface document: maximum lengths in EUC-KR bytes.
 * Fields not listed here are kept as received and not length-checked.
 */
export const REQUIRED_JSON_FIELDS = {
  resCd: 4,
  resMsg: 1000,
  mallId: 8,
  notiType: 2,
  pgCno: 20,
  shopOrderNo: 40,
} as const;

export const OPTIONAL_JSON_FIELDS: Record<string, number> = {
  // transaction
  // cancelRemainAmount is what a cancel leaves of its payment; remainAmount a prepaid card's balance.
  amount: 12, cancelAmount: 12, cancelRemainAmount: 12, remainAmount: 12, shopTransactionId: 60, transactionDate: 14,
  approvalNo: 100, approvalDate: 14, cancelPgCno: 20, cancelDate: 14, statusCode: 4, statusMessage: 100,
  payMethodTypeCode: 2, escrowUsed: 1, complexUsed: 1, msgAuthValue: 200, oriPgCno: 20,
  shopValue1: 64, shopValue2: 64, shopValue3: 64, shopValue4: 64, shopValue5: 64, shopValue6: 64,
  // card
  cardNo: 20, cardMaskNo: 20, issuerCode: 3, issuerName: 50, acquirerCode: 3, acquirerName: 50,
  installmentMonth: 2, freeInstallmentTypeCode: 2, cardGubun: 1, cardBizGubun: 1, partCancelUsed: 1,
  subCardCd: 3, couponAmount: 12, vanSno: 12, cardAmount: 12,
  // bank transfer / virtual account
  bankCode: 3, bankName: 20, accountNo: 20, depositName: 50, depositorName: 50, expiryDate: 14,
  depositDate: 14, depositAmount: 12, vaccountNo: 20, payerName: 50,
  // mobile
  authId: 20, billId: 40, mobileNo: 11, mobileAnsimUsed: 1, mobileCd: 3,
  // cash receipt
  cashReceiptResCd: 4, cashReceiptResMsg: 100, cashReceiptAmount: 12, cashReceiptApprovalNo: 20,
  cashReceiptApprovalDate: 14, cashReceiptIssueType: 1,
  // point / coupon / prepaid
  pntCpCode: 10, pntApprovalNo: 20, pntAmount: 12, usedPntAmount: 12, remainPntAmount: 12,
  cpCode: 10, cpnApprovalNo: 20, cpnAmount: 12, multiCardAmount: 12, multiPntAmount: 12, multiCponAmount: 12,
  // escrow
  escrowStatusCode: 4, escrowStatusMessage: 100, escrowChangeDate: 14, deliveryDate: 14,
  // refund / transfer
  refundDate: 14, refundAmount: 12, refundBankCode: 3, refundAccountNo: 20, refundDepositName: 50,
  transferFailCode: 4, transferFailMessage: 100, depositPgCno: 20,
  // buyer
  customerId: 20, customerName: 50, customerMail: 100, customerContactNo: 20,
  // basket
  basketUsed: 1, bkResCnt: 2,
};

/** Event 70 (UnionPay) arrives as an EUC-KR form with its own snake_case names. */
export const REQUIRED_UNIONPAY_FIELDS = {
  res_cd: 4,
  res_msg: 1000,
  noti_type: 2,
  cno: 20,
  memb_id: 8,
  order_no: 40,
} as const;

export const OPTIONAL_UNIONPAY_FIELDS: Record<string, number> = {
  pay_type: 2, kvp_pgid: 50, issuer_cd: 3, amount: 12,
};

/** Basket triples `productNo<n>`, `productPgCno<n>`, `sellerId<n>`; at most 20 of them. */
export const BASKET_MAX_ITEMS = 20;
export const BASKET_FIELD_LENGTHS = { productNo: 40, productPgCno: 20, sellerId: 50 } as const;

/** The largest value the gateway's amount fields (12 digits) can carry. */
export const MAX_GATEWAY_AMOUNT = 999_999_999_999;

/** A non-negative integer string whose value has at most 12 digits (leading zeros are padding, not value). */
export function fitsGatewayAmount(digits: string): boolean {
  return digits.replace(/^0+(?=\d)/, '').length <= 12;
}

/** Money must never be misread: any field named like an amount has to be an integer string. */
export function isAmountField(name: string): boolean {
  return /^amount$|Amount$|_amount$|Amt$/.test(name);
}
