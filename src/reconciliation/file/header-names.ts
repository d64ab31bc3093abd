/**
 * The header names Korean PG merchant portals put on their transaction lists and settlement
 * statements: KICC easypay (PG거래번호, 거래금액, 거래일시, 취소거래번호), Toss Payments (주문번호,
 * 결제금액, 승인일시, 결제수단, 결제상태), KG Inicis (TID, 거래일자 and 거래시간 in two columns,
 * 승인번호), NICE (거래고유번호 or TID, 주문번호 (Moid), 거래구분 승인/취소), PortOne (PG사 거래번호,
 * 가맹점 주문번호, 결제상태). Each field lists its names most specific first: a file carrying
 * both PG거래번호 and 거래번호 gives pgCno the first. Names are compared normalised
 * (`normaliseHeader`), so 「거래금액(원)」, 「거래 금액」 and 「거래금액 [KRW]」 are one name.
 */
export const TRANSACTION_HEADERS: Record<string, readonly string[]> = {
  pgCno: ['pg거래번호', 'pg사거래번호', '거래고유번호', 'tid', '거래번호', '거래id'],
  cancelPgCno: ['취소거래번호', '취소pg거래번호', '취소tid', '취소거래고유번호'],
  shopOrderNo: ['가맹점주문번호', '상점주문번호', '주문번호', 'moid', 'oid', 'orderid'],
  approvalNo: ['승인번호', '카드승인번호'],
  amount: ['거래금액', '결제금액', '승인금액', '금액'],
  cancelledAmount: ['취소금액'],
  at: ['거래일시', '승인일시', '결제일시', '취소일시'],
  atDay: ['거래일자', '승인일자', '결제일자', '거래일'],
  atTime: ['거래시간', '승인시간', '결제시간', '거래시각'],
  status: ['거래상태', '결제상태', '상태'],
  entryType: ['거래구분', '거래유형', '구분'],
  method: ['결제수단', '지불수단', '결제방법'],
};

export const SETTLEMENT_HEADERS: Record<string, readonly string[]> = {
  pgCno: TRANSACTION_HEADERS.pgCno!,
  cancelPgCno: TRANSACTION_HEADERS.cancelPgCno!,
  shopOrderNo: TRANSACTION_HEADERS.shopOrderNo!,
  gross: ['거래금액', '매출금액', '결제금액', '승인금액'],
  fee: ['결제수수료', '가맹점수수료', 'pg수수료', '수수료'],
  feeVat: ['수수료부가세', '부가세', '부가가치세', 'vat'],
  payout: ['정산금액', '지급금액', '입금금액', '입금액', '지급액', '정산액'],
  payoutDay: ['지급일', '지급일자', '지급예정일', '정산일', '정산일자', '정산예정일', '입금일', '입금일자', '입금예정일'],
  transactionDay: ['거래일', '거래일자', '매출일', '매출일자', '승인일자'],
};

/** The fields a list cannot be read without; the transaction time may be one column or two. */
export const TRANSACTION_KEYS = ['pgCno', 'amount', 'at'] as const;
export const SETTLEMENT_KEYS = ['pgCno', 'gross', 'fee', 'payout', 'payoutDay'] as const;

/**
 * A header as compared: Unicode compatibility forms folded (full-width letters), lower case,
 * bracketed units and notes dropped (「(원)」, 「[KRW]」, 「(TID)」), spaces and punctuation gone.
 */
export function normaliseHeader(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\([^)]*\)|\[[^\]]*\]|<[^>]*>|「[^」]*」/g, '')
    .replace(/[\s\p{P}\p{S}]/gu, '');
}
