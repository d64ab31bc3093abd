import type { DiscrepancyKind } from './order-record';

/**
 * What to do when a discrepancy opens, per kind and language: the console's Discrepancies page,
 * its order page and its playbooks page (`/console/playbooks#<kind>`) are all built from here, so
 * the one-line explanation beside a kind and its playbook never disagree.
 */
export interface Playbook {
  /** A human name for the kind. */
  name: string;
  /** One plain line: what happened, in the words of the people who settle the money. */
  line: string;
  /** What it means, a few sentences. */
  means: string;
  /** What to look at before acting. */
  check: string[];
  /** How to settle it, through this service or the gateway's merchant portal. */
  settle: string[];
}

/** The kinds a playbook is written for: every kind the ledger opens, and the ones it is gaining. */
export type PlaybookKind = DiscrepancyKind | 'conflicting_notification' | 'refused_notification' | 'unknown_refund_amount';

export const PLAYBOOK_KINDS: readonly PlaybookKind[] = [
  'amount_mismatch', 'duplicate_payment', 'over_cancel', 'remaining_mismatch', 'refund_transfer_failed',
  'unexpected_payment', 'payment_after_expiry', 'conflicting_notification', 'refused_notification', 'unknown_refund_amount',
];

export type PlaybookLanguage = 'en' | 'ko';

const RESOLVE_EN = 'Once settled, press Resolve on the order page with a note saying what was done (or `noti-receiver discrepancies resolve <id> --note "…"`); the note is audited under your name.';
const RESOLVE_KO = '처리가 끝나면 주문 화면에서 「해결」을 누르고 무엇을 했는지 메모를 남기세요(또는 `noti-receiver discrepancies resolve <id> --note "…"`). 메모는 처리자 이름과 함께 감사 기록에 남습니다.';

const EN: Record<PlaybookKind, Playbook> = {
  amount_mismatch: {
    name: 'Amount mismatch',
    line: 'The gateway reports a payment of another amount than the shop expected.',
    means: 'A payment or deposit arrived for a different amount than the expectation. Notifications carry no signature, so a changed amount is the classic sign of a tampered payment window; it can also be an expectation registered with the wrong amount.',
    check: [
      'Compare the expected and notified amounts on the order page, and the payment in the gateway\'s merchant portal (by its pgCno).',
      'Check whether the shop registered the expectation with the right amount and currency.',
    ],
    settle: [
      'If the customer paid less: cancel the payment (internal API cancellation or the portal) and ask the customer to pay again, or collect the difference.',
      'If the expectation was wrong: the payment stands; note so when resolving.',
      RESOLVE_EN,
    ],
  },
  duplicate_payment: {
    name: 'Double payment',
    line: 'The order was paid more than once and holds more than it should.',
    means: 'Two or more distinct payments (different pgCno) for one order leave more money than expected after cancels: the customer was charged twice.',
    check: [
      'List the payments on the order page; find them in the portal by their pgCno.',
      'Make sure no cancel of the extra payment is already on its way (a cancel notification may follow).',
    ],
    settle: [
      'Cancel the extra payment in full (internal API cancellation or the portal); the ledger resolves nothing by itself until the cancel notification arrives.',
      RESOLVE_EN,
    ],
  },
  over_cancel: {
    name: 'Over-cancel',
    line: 'More was cancelled than was ever paid for this order.',
    means: 'The sum of cancels exceeds what was approved and deposited, after the grace period in which a late approval could still arrive. A late approval closes it automatically.',
    check: [
      'Look for the approval in the portal: it may never have been notified (check Rejections for a refused notification of this order).',
      'Check the cancels\' pgCno against the payments\' pgCno.',
    ],
    settle: [
      'If an approval is missing, have the gateway resend it or reprocess its rejection; the discrepancy resolves itself.',
      'Otherwise settle the excess refund with the gateway through the portal.',
      RESOLVE_EN,
    ],
  },
  remaining_mismatch: {
    name: 'Remaining amount mismatch',
    line: 'After a cancel, the balance the gateway reports differs from the ledger\'s.',
    means: 'The latest partial cancel states a remaining amount (cancelRemainAmount) that differs from what the ledger computes from the payments and cancels it received, after the grace period: a notification is probably missing.',
    check: [
      'Compare the order\'s cancels with the portal\'s cancel history for the pgCno.',
      'Look in Rejections and Conflicts for notifications of this order that were refused or differed.',
    ],
    settle: [
      'Have the gateway resend the missing notification, or reprocess its rejection; otherwise correct the shop\'s records from the portal.',
      RESOLVE_EN,
    ],
  },
  refund_transfer_failed: {
    name: 'Refund transfer failed',
    line: 'A refund could not be paid out to the customer and must be repeated.',
    means: 'Event 51: the gateway could not transfer a refund (a closed or wrong bank account, typically for a virtual account). The customer has not received the money.',
    check: [
      'Find the refund in the portal by its pgCno and read the bank\'s reason.',
      'Contact the customer for a correct refund account.',
    ],
    settle: [
      'Repeat the refund through the portal (or pay the customer directly) with the corrected account.',
      RESOLVE_EN,
    ],
  },
  unexpected_payment: {
    name: 'Unexpected payment',
    line: 'A payment arrived for an order the shop never registered.',
    means: 'With `LEDGER_REQUIRE_EXPECTATION=true`, a payment or deposit came for an order without an expectation: the shop did not create it, or forgot to register it.',
    check: [
      'Look the order number up in the shop\'s own system.',
      'Check the mallId: a payment for another mall may have been routed here.',
    ],
    settle: [
      'If the order is real: register its expectation (`PUT …/expectation`) and resolve.',
      'If not: cancel the payment through the portal or the internal API.',
      RESOLVE_EN,
    ],
  },
  payment_after_expiry: {
    name: 'Payment after expiry',
    line: 'The customer paid after the order had expired.',
    means: 'A payment or deposit happened after the expectation\'s `expiresAt`: the shop may already have released the stock or cancelled the order.',
    check: [
      'Check whether the shop still holds the order (stock, shipping).',
    ],
    settle: [
      'Either honour the order, or cancel the payment (a virtual account deposit is refunded through the portal).',
      RESOLVE_EN,
    ],
  },
  conflicting_notification: {
    name: 'Conflicting notification',
    line: 'The gateway resent a notification with different amounts or result.',
    means: 'A redelivery under a stored key differs in its money fields (amount, cancel amounts, remainders, resCd) or names another order (one pgCno under two order numbers: shown on both orders). The first stored version still counts; both versions are in the details.',
    check: [
      'Open the Conflicts page: both versions are shown field by field.',
      'Ask which one is right in the portal, by the pgCno.',
    ],
    settle: [
      'If the later version is right, correct the shop\'s records by hand (the ledger keeps the first) and note it.',
      RESOLVE_EN,
    ],
  },
  refused_notification: {
    name: 'Refused notification',
    line: 'A notification for this order was refused as invalid and is not counted.',
    means: 'The receiver refused a notification naming this order (a wrong mallId, a bad field). It is kept in Rejections; the order\'s figures miss it until it is accepted.',
    check: [
      'Open Rejections to read why it was refused.',
    ],
    settle: [
      'Fix the configuration if it was wrong (MALL_IDS, GATEWAY_ENV, the allowlist), restart, and Reprocess the rejection: the ledger resolves this by itself once it is accepted.',
      RESOLVE_EN,
    ],
  },
  unknown_refund_amount: {
    name: 'Unknown refund amount',
    line: 'A refund or cancel came without an amount the ledger could work out.',
    means: 'An event 50 or 20 states no amount, and none can be derived from what it names (the deposit, the cancel it confirms, the remainder of its payment). The order\'s figures leave it out.',
    check: [
      'Find the refund in the portal by its pgCno and read its amount.',
    ],
    settle: [
      'Correct the shop\'s records with the portal\'s amount and note it.',
      RESOLVE_EN,
    ],
  },
};

const KO: Record<PlaybookKind, Playbook> = {
  amount_mismatch: {
    name: '금액 불일치',
    line: '게이트웨이가 알린 결제 금액이 쇼핑몰이 예상한 금액과 다릅니다.',
    means: '결제나 입금이 예상 금액과 다른 금액으로 들어왔습니다. 통지에는 서명이 없으므로 금액이 바뀐 것은 결제창 변조의 전형적인 신호이며, 예상 금액을 잘못 등록한 경우일 수도 있습니다.',
    check: [
      '주문 화면에서 예상 금액과 통지 금액을 비교하고, 게이트웨이 가맹점 관리자 페이지에서 해당 pgCno의 결제를 확인하세요.',
      '쇼핑몰이 예상 금액과 통화를 올바르게 등록했는지 확인하세요.',
    ],
    settle: [
      '고객이 덜 결제했다면: 결제를 취소하고(내부 API 취소 또는 관리자 페이지) 다시 결제하도록 안내하거나 차액을 받으세요.',
      '예상 금액이 잘못되었다면: 결제는 유효합니다. 해결할 때 그렇게 메모하세요.',
      RESOLVE_KO,
    ],
  },
  duplicate_payment: {
    name: '이중 결제',
    line: '한 주문이 두 번 이상 결제되어 받아야 할 금액보다 많습니다.',
    means: '한 주문에 서로 다른 결제(pgCno가 다름)가 둘 이상 있고, 취소를 반영해도 예상보다 많은 금액이 남아 있습니다. 고객에게 두 번 청구되었습니다.',
    check: [
      '주문 화면에서 결제 목록을 보고, 관리자 페이지에서 각 pgCno로 찾아보세요.',
      '추가 결제의 취소가 이미 진행 중인지 확인하세요(취소 통지가 뒤따라올 수 있습니다).',
    ],
    settle: [
      '추가 결제를 전액 취소하세요(내부 API 취소 또는 관리자 페이지). 취소 통지가 도착하기 전에는 장부가 스스로 해결하지 않습니다.',
      RESOLVE_KO,
    ],
  },
  over_cancel: {
    name: '초과 취소',
    line: '이 주문에서 결제된 금액보다 많이 취소되었습니다.',
    means: '유예 시간이 지난 뒤에도 취소 합계가 승인 및 입금 합계를 넘습니다. 늦게 도착한 승인이 있으면 자동으로 해결됩니다.',
    check: [
      '관리자 페이지에서 승인을 찾아보세요. 통지되지 않았을 수 있습니다(거부 목록에서 이 주문의 거부된 통지를 확인하세요).',
      '취소의 pgCno와 결제의 pgCno를 대조하세요.',
    ],
    settle: [
      '승인이 빠졌다면 게이트웨이에 재전송을 요청하거나 거부 건을 재처리하세요. 불일치는 저절로 해결됩니다.',
      '그렇지 않다면 초과 환불을 관리자 페이지에서 게이트웨이와 정산하세요.',
      RESOLVE_KO,
    ],
  },
  remaining_mismatch: {
    name: '남은 금액 불일치',
    line: '게이트웨이가 알린 취소 후 잔액이 장부와 다릅니다.',
    means: '유예 시간이 지난 뒤, 마지막 부분 취소가 알린 잔액(cancelRemainAmount)이 장부가 받은 결제와 취소로 계산한 잔액과 다릅니다. 통지가 하나 빠졌을 가능성이 큽니다.',
    check: [
      '주문의 취소 내역을 관리자 페이지의 해당 pgCno 취소 내역과 비교하세요.',
      '거부 목록과 충돌 목록에서 이 주문의 거부되거나 내용이 다른 통지를 찾아보세요.',
    ],
    settle: [
      '빠진 통지를 게이트웨이에 재전송 요청하거나 거부 건을 재처리하세요. 그렇지 않다면 관리자 페이지를 기준으로 쇼핑몰 기록을 바로잡으세요.',
      RESOLVE_KO,
    ],
  },
  refund_transfer_failed: {
    name: '환불 이체 실패',
    line: '환불금을 고객에게 이체하지 못해 다시 환불해야 합니다.',
    means: '이벤트 51: 게이트웨이가 환불금을 이체하지 못했습니다(주로 가상계좌의 해지되었거나 잘못된 계좌). 고객은 돈을 받지 못했습니다.',
    check: [
      '관리자 페이지에서 pgCno로 환불 건을 찾아 은행의 사유를 확인하세요.',
      '고객에게 연락해 올바른 환불 계좌를 받으세요.',
    ],
    settle: [
      '바로잡은 계좌로 관리자 페이지에서 환불을 다시 하거나 고객에게 직접 지급하세요.',
      RESOLVE_KO,
    ],
  },
  unexpected_payment: {
    name: '예상하지 않은 결제',
    line: '쇼핑몰이 등록하지 않은 주문에 결제가 들어왔습니다.',
    means: '`LEDGER_REQUIRE_EXPECTATION=true`일 때, 예상 금액이 등록되지 않은 주문에 결제나 입금이 들어왔습니다. 쇼핑몰이 만든 주문이 아니거나 등록을 빠뜨렸습니다.',
    check: [
      '쇼핑몰 시스템에서 주문번호를 찾아보세요.',
      'mallId를 확인하세요. 다른 상점의 결제가 이곳으로 왔을 수 있습니다.',
    ],
    settle: [
      '실제 주문이라면: 예상 금액을 등록하고(`PUT …/expectation`) 해결하세요.',
      '아니라면: 관리자 페이지나 내부 API로 결제를 취소하세요.',
      RESOLVE_KO,
    ],
  },
  payment_after_expiry: {
    name: '만료 후 결제',
    line: '주문이 만료된 뒤에 고객이 결제했습니다.',
    means: '예상의 `expiresAt` 이후에 결제나 입금이 있었습니다. 쇼핑몰이 이미 재고를 풀었거나 주문을 취소했을 수 있습니다.',
    check: [
      '쇼핑몰이 아직 주문을 유지하고 있는지(재고, 배송) 확인하세요.',
    ],
    settle: [
      '주문을 그대로 처리하거나 결제를 취소하세요(가상계좌 입금은 관리자 페이지에서 환불).',
      RESOLVE_KO,
    ],
  },
  conflicting_notification: {
    name: '충돌하는 통지',
    line: '게이트웨이가 금액이나 결과가 다른 통지를 다시 보냈습니다.',
    means: '이미 저장된 키로 다시 온 통지의 금액 항목(금액, 취소 금액, 잔액, resCd)이 다르거나 다른 주문을 가리킵니다(한 pgCno가 두 주문번호로 온 경우, 두 주문 모두에 표시됩니다). 처음 저장된 내용이 계속 유효하며, 두 내용 모두 상세에 있습니다.',
    check: [
      '충돌 화면에서 두 내용을 항목별로 비교하세요.',
      '관리자 페이지에서 pgCno로 어느 쪽이 맞는지 확인하세요.',
    ],
    settle: [
      '나중 내용이 맞다면 쇼핑몰 기록을 직접 바로잡고(장부는 처음 것을 유지합니다) 메모하세요.',
      RESOLVE_KO,
    ],
  },
  refused_notification: {
    name: '거부된 통지',
    line: '이 주문의 통지가 유효하지 않아 거부되었고 집계에 빠져 있습니다.',
    means: '수신기가 이 주문을 가리키는 통지를 거부했습니다(잘못된 mallId, 잘못된 항목). 거부 목록에 보관되어 있으며, 받아들여질 때까지 주문의 금액에 반영되지 않습니다.',
    check: [
      '거부 목록에서 거부 사유를 확인하세요.',
    ],
    settle: [
      '설정이 잘못되었다면(MALL_IDS, GATEWAY_ENV, 허용 목록) 고치고 재시작한 뒤 거부 건을 재처리하세요. 받아들여지면 장부가 저절로 해결합니다.',
      RESOLVE_KO,
    ],
  },
  unknown_refund_amount: {
    name: '환불 금액 알 수 없음',
    line: '장부가 금액을 알아낼 수 없는 환불이나 취소가 들어왔습니다.',
    means: '이벤트 50 또는 20에 금액이 없고, 그것이 가리키는 것(입금, 확인하는 취소, 결제의 잔액)으로도 금액을 알 수 없습니다. 주문 금액에서 빠져 있습니다.',
    check: [
      '관리자 페이지에서 pgCno로 환불 건을 찾아 금액을 확인하세요.',
    ],
    settle: [
      '관리자 페이지의 금액으로 쇼핑몰 기록을 바로잡고 메모하세요.',
      RESOLVE_KO,
    ],
  },
};

export const PLAYBOOKS: Record<PlaybookLanguage, Record<PlaybookKind, Playbook>> = { en: EN, ko: KO };

/** A kind's playbook; a kind this catalogue does not know yet still gets its code as a name. */
export function playbookOf(kind: string, language: PlaybookLanguage): Playbook | null {
  return (PLAYBOOKS[language] as Record<string, Playbook | undefined>)[kind] ?? null;
}
