import type { DiscrepancyKind } from '../ledger/fold/order-record';

export type AlertLanguage = 'ko' | 'en';

/** Every word an alert says, in both languages (the compiler asks for each key in each). */
export interface AlertTexts {
  locale: string;
  product: string;
  discrepancy: string;
  ledgerError: string;
  deadEvent: string;
  digest: (count: number) => string;
  more: (count: number) => string;
  order: string;
  event: string;
  attempts: (count: number) => string;
  ledgerErrorLine: string;
  deadEventLine: string;
  /** A dead event of the simulator's: its mark in the title, and a line saying no real money moved. */
  simulated: string;
  simulatedLine: string;
  at: string;
  kinds: Record<DiscrepancyKind, string>;
  amounts: Record<string, string>;
  time: (iso: string) => string;
  /** `noti-receiver alerts test`: a message that says only that this channel works. */
  testSubject: string;
  testLine: string;
  /** The discrepancy's id, named: an operator quotes it to resolve it from the CLI or the API. */
  discrepancyId: string;
  /** What to do: the console's playbook for the kind (its link when the console's address is known). */
  whatToDo: string;
  whatToDoWithoutLink: string;
}

const KST_OFFSET_MS = 9 * 3600_000;
const KO_TIME = new Intl.DateTimeFormat('ko-KR', {
  timeZone: 'Asia/Seoul', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
});
const valid = (iso: string) => !Number.isNaN(Date.parse(iso));

const ko: AlertTexts = {
  locale: 'ko-KR',
  product: '결제 통지 수신기',
  testSubject: '알림 시험',
  discrepancyId: '불일치 번호',
  whatToDo: '할 일',
  whatToDoWithoutLink: '할 일: 콘솔의 「불일치」 → 「종류별 대응 방법」',
  testLine: '시험 메시지입니다. 결제 통지 수신기의 알림이 이 채널로 옵니다. 조치할 것은 없습니다.',
  discrepancy: '새 불일치',
  ledgerError: '장부 오류',
  deadEvent: '전달 포기한 이벤트',
  digest: (count) => `새 문제 ${count}건`,
  more: (count) => `그 밖에 ${count}건은 콘솔에서 확인하세요.`,
  order: '주문',
  event: '이벤트',
  attempts: (count) => `${count}회 시도`,
  ledgerErrorLine: '장부가 이 주문의 입력을 반영하지 못했습니다. 원인을 고친 뒤 `noti-receiver ledger rebuild`를 실행하세요.',
  deadEventLine: '내부 큐로 보내지 못해 재시도를 멈췄습니다. 원인을 고친 뒤 콘솔에서 다시 보내세요.',
  simulated: '시뮬레이션',
  simulatedLine: '시뮬레이터(npm run simulate)가 보낸 알림입니다. 실제 돈은 움직이지 않았습니다.',
  at: '시각',
  kinds: {
    amount_mismatch: '금액 불일치',
    duplicate_payment: '이중 결제',
    over_cancel: '초과 취소',
    remaining_mismatch: '남은 금액 불일치',
    refund_transfer_failed: '환불 이체 실패',
    unexpected_payment: '예상하지 않은 결제',
    payment_after_expiry: '만료 후 결제',
    conflicting_notification: '충돌하는 통지',
    refused_notification: '거부된 통지',
    unknown_refund_amount: '환불 금액 알 수 없음',
    gateway_amount_differs: '게이트웨이 거래내역과 금액 다름',
    gateway_status_differs: '게이트웨이 거래내역과 상태 다름',
    notification_missing: '통지 누락',
    not_in_gateway_list: '게이트웨이 거래내역에 없음 (위조 가능성)',
    payout_does_not_add_up: '지급액 계산 안 맞음',
    settlement_amount_differs: '정산내역서와 금액 다름',
  },
  amounts: {
    expected: '기대 금액', notified: '결제 통지 금액', largestPayment: '가장 큰 결제', remaining: '남은 금액', approved: '승인', deposited: '입금',
    cancelled: '취소', computed: '계산', amount: '금액', storedAmount: '저장된 금액', redeliveredAmount: '재전송 금액',
    listedAmount: '거래내역 금액', notifiedAmount: '통지 금액',
    gross: '거래금액', fee: '수수료', feeVat: '수수료 부가세', payout: '지급액',
  },
  time: (iso) => (valid(iso) ? `${KO_TIME.format(new Date(iso))} KST` : iso),
};

const en: AlertTexts = {
  locale: 'en-US',
  product: 'payment-noti-receiver',
  testSubject: 'Alert test',
  discrepancyId: 'Discrepancy',
  whatToDo: 'What to do',
  whatToDoWithoutLink: "What to do: the console's Discrepancies → What to do, kind by kind",
  testLine: "A test message: payment-noti-receiver's alerts reach this channel. Nothing to do.",
  discrepancy: 'New discrepancy',
  ledgerError: 'Ledger error',
  deadEvent: 'Event given up',
  digest: (count) => `${count} new problems`,
  more: (count) => `${count} more: see the console.`,
  order: 'Order',
  event: 'Event',
  attempts: (count) => `${count} attempt${count === 1 ? '' : 's'}`,
  ledgerErrorLine: "The ledger could not apply an input of this order. Fix the cause, then run `noti-receiver ledger rebuild`.",
  deadEventLine: 'The relay stopped retrying its delivery to the internal queue. Fix the cause, then requeue it from the console.',
  simulated: 'simulated',
  simulatedLine: 'Sent by the simulator (npm run simulate): no real money moved.',
  at: 'At',
  kinds: {
    amount_mismatch: 'Amount mismatch',
    duplicate_payment: 'Double payment',
    over_cancel: 'Over-cancel',
    remaining_mismatch: 'Remaining amount mismatch',
    refund_transfer_failed: 'Refund transfer failed',
    unexpected_payment: 'Unexpected payment',
    payment_after_expiry: 'Payment after expiry',
    conflicting_notification: 'Conflicting notification',
    refused_notification: 'Refused notification',
    unknown_refund_amount: 'Unknown refund amount',
    gateway_amount_differs: 'Amount differs from the gateway\'s list',
    gateway_status_differs: 'Status differs from the gateway\'s list',
    notification_missing: 'Notification missing',
    not_in_gateway_list: 'Not in the gateway\'s list (possible forgery)',
    payout_does_not_add_up: 'Payout does not add up',
    settlement_amount_differs: 'Amount differs from the settlement statement',
  },
  amounts: {
    expected: 'expected', notified: 'paid as notified', largestPayment: 'largest payment', remaining: 'remaining', approved: 'approved', deposited: 'deposited',
    cancelled: 'cancelled', computed: 'computed', amount: 'amount', storedAmount: 'stored amount', redeliveredAmount: 'redelivered amount',
    listedAmount: 'listed amount', notifiedAmount: 'notified amount',
    gross: 'gross', fee: 'fee', feeVat: 'VAT on the fee', payout: 'payout',
  },
  time: (iso) => (valid(iso) ? `${new Date(Date.parse(iso) + KST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')} KST` : iso),
};

export const ALERT_TEXTS: Record<AlertLanguage, AlertTexts> = { ko, en };
