import iconv from 'iconv-lite';
import { KOREAN_CHARSET } from '../euc-kr';
import { kstStamp } from '../notifications/kst-date';

/**
 * Realistic gateway notifications, one builder per event type. The simulator sends them
 * and the tests use them, so a fixture cannot drift from what we rehearse against.
 */
export type JsonNotification = Record<string, string> & {
  resCd: string;
  resMsg: string;
  mallId: string;
  notiType: string;
  pgCno: string;
  shopOrderNo: string;
};

let sequence = 0;
/** A fresh 20-digit PG transaction number, unique within this process. */
export function nextPgCno(): string {
  sequence += 1;
  return `26112112${String(process.pid % 10000).padStart(4, '0')}${String(sequence).padStart(8, '0')}`;
}

function common(notiType: string, overrides: Partial<JsonNotification>): JsonNotification {
  return {
    resCd: '0000',
    resMsg: '정상처리',
    mallId: 'T0001234',
    notiType,
    pgCno: nextPgCno(),
    shopOrderNo: `ORD-${Date.now()}-${sequence}`,
    ...overrides,
  } as JsonNotification;
}

export function approvalNotification(overrides: Partial<JsonNotification> = {}): JsonNotification {
  return common('10', {
    amount: '12000',
    approvalNo: '30012345',
    transactionDate: kstStamp(),
    payMethodTypeCode: '11',
    cardNo: '5361-48**-****-1234',
    issuerCode: '026',
    issuerName: '비씨카드',
    installmentMonth: '00',
    customerName: '홍길동',
    customerContactNo: '01012345678',
    statusCode: 'TS03',
    statusMessage: '매입요청',
    ...overrides,
  });
}

/** Event 20: `pgCno` is the ORIGINAL payment; each (partial) cancel has its own `cancelPgCno`. */
export function changeNotification(overrides: Partial<JsonNotification> = {}): JsonNotification {
  return common('20', {
    cancelPgCno: nextPgCno(),
    cancelAmount: '3000',
    cancelRemainAmount: '9000',
    amount: '3000',
    cancelDate: kstStamp(),
    statusCode: 'TS06',
    statusMessage: '부분매입취소',
    ...overrides,
  });
}

export function depositNotification(overrides: Partial<JsonNotification> = {}): JsonNotification {
  return common('30', {
    amount: '45000',
    bankCode: '004',
    bankName: '국민은행',
    accountNo: '94770201234567',
    depositName: '김철수',
    depositDate: kstStamp(),
    ...overrides,
  });
}

export function depositCancelNotification(overrides: Partial<JsonNotification> = {}): JsonNotification {
  return common('31', { amount: '45000', bankCode: '004', accountNo: '94770201234567', cancelDate: kstStamp(), ...overrides });
}

/** Event 40 reports several escrow statuses for one `pgCno`, told apart by `statusCode`. */
export function escrowNotification(overrides: Partial<JsonNotification> = {}): JsonNotification {
  return common('40', {
    escrowUsed: 'Y',
    statusCode: 'ES02',
    statusMessage: '배송중',
    escrowChangeDate: kstStamp(),
    ...overrides,
  });
}

/** Escrow statuses in the order a purchase moves through them; event 40 reports each separately. */
export const ESCROW_STATUSES = [
  { statusCode: 'ES01', statusMessage: '배송대기' },
  { statusCode: 'ES02', statusMessage: '배송중' },
  { statusCode: 'ES03', statusMessage: '배송완료' },
  { statusCode: 'ES07', statusMessage: '구매확정' },
] as const;

export function refundNotification(overrides: Partial<JsonNotification> = {}): JsonNotification {
  return common('50', {
    amount: '12000',
    refundDate: kstStamp(),
    refundBankCode: '088',
    refundAccountNo: '110123456789',
    refundDepositName: '이영희',
    ...overrides,
  });
}

/** Event 51 carries the bank's failure code in `resCd`. */
export function transferFailedNotification(overrides: Partial<JsonNotification> = {}): JsonNotification {
  return common('51', {
    resCd: 'B102',
    resMsg: '계좌번호 오류',
    amount: '12000',
    refundDate: kstStamp(),
    refundBankCode: '088',
    ...overrides,
  });
}

/** A basket payment: `bkResCnt` triples `productNo<n>`, `productPgCno<n>`, `sellerId<n>`. */
export function basketApprovalNotification(items: number, overrides: Partial<JsonNotification> = {}): JsonNotification {
  const basket: Record<string, string> = { basketUsed: 'Y', bkResCnt: String(items) };
  for (let n = 1; n <= items; n += 1) {
    basket[`productNo${n}`] = `P-${n}`;
    basket[`productPgCno${n}`] = nextPgCno();
    basket[`sellerId${n}`] = `seller${n}`;
  }
  return approvalNotification({ ...basket, ...overrides });
}

export const JSON_BUILDERS = {
  '10': approvalNotification,
  '20': changeNotification,
  '30': depositNotification,
  '31': depositCancelNotification,
  '40': escrowNotification,
  '50': refundNotification,
  '51': transferFailedNotification,
} as const;

export type UnionPayFields = Record<string, string> & {
  res_cd: string;
  res_msg: string;
  noti_type: string;
  cno: string;
  memb_id: string;
  order_no: string;
};

/** Event 70's fields, as the gateway names them. */
export function unionPayFields(overrides: Partial<UnionPayFields> = {}): UnionPayFields {
  return {
    res_cd: '0000',
    res_msg: '정상처리되었습니다',
    noti_type: '70',
    pay_type: '11',
    cno: nextPgCno(),
    memb_id: 'T0001234',
    order_no: `ORD-UP-${Date.now()}-${sequence}`,
    kvp_pgid: 'KVP0001',
    issuer_cd: '029',
    amount: '33000',
    ...overrides,
  } as UnionPayFields;
}

/** The bytes the gateway sends for event 70: every value EUC-KR encoded, then percent-escaped. */
export function encodeForm(fields: Record<string, string>, charset = KOREAN_CHARSET): Buffer {
  const escape = (text: string) =>
    [...iconv.encode(text, charset)]
      .map((b) => (/[A-Za-z0-9*\-._]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : b === 0x20 ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
      .join('');
  return Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `${escape(k)}=${escape(v)}`)
      .join('&'),
    'ascii',
  );
}

export function unionPayForm(overrides: Partial<UnionPayFields> = {}): { fields: UnionPayFields; body: Buffer; contentType: string } {
  const fields = unionPayFields(overrides);
  return { fields, body: encodeForm(fields), contentType: 'application/x-www-form-urlencoded' };
}
