import type { Playbook, PlaybookKind } from './playbook';

/** 모든 유형이 콘솔에서 마지막으로 하는 일: 메모와 「해결」. */
const RESOLVE =
  '돈 문제가 정리되면 불일치 옆의 「메모」 칸(주문 화면 또는 「불일치」 화면)에 무엇을 했는지 적고 「해결」을 누르세요(「처리 담당」 역할). 메모는 처리자 이름으로 「감사 기록」에 남습니다. 해결은 결정을 기록할 뿐 돈을 움직이지 않습니다.';
/** 터미널에서 같은 일: 개발자용. */
const RESOLVE_CLI = '터미널에서 해결: `noti-receiver discrepancies resolve <id> --note "…"` (또는 `POST /v1/discrepancies/<id>/resolve`).';
const CANCEL_API = '관리자 페이지 대신 내부 API로 취소: `POST /v1/wallet-b/cancellations`에 `pgCno`와 `reviseTypeCode` `40`(전액 취소).';

/** A payment this service can cancel is cancelled from its order's page, not the portal. */
const CANCEL_HERE = '취소할 결제 옆에 「취소」 단추가 있으면(간편결제, 은련 VAN) 이 콘솔의 주문 화면에서 바로 취소하세요(「취소 가능」 처리 담당 또는 관리자). 단추가 없는 결제(카드, 가상계좌 등)만 아래처럼 가맹점 관리자 페이지에서 취소합니다.';

export const PLAYBOOKS_KO: Record<PlaybookKind, Playbook> = {
  amount_mismatch: {
    name: '금액 불일치',
    line: '게이트웨이가 알린 결제 금액이 쇼핑몰이 예상한 금액과 다릅니다.',
    means: '결제나 입금이 예상 금액과 다른 금액으로 들어왔습니다. 통지에는 서명이 없으므로 금액이 바뀐 것은 결제창 변조의 전형적인 신호이며, 예상 금액을 잘못 등록한 경우일 수도 있습니다.',
    console: [
      '주문을 여세요. 금액 요약에 예상 금액과 승인 금액이, 타임라인에 결제와 그 pgCno가 있습니다.',
      '승인 금액이 주문 금액보다 적으면 배송하지 마세요.',
      CANCEL_HERE,
      RESOLVE,
    ],
    portal: [
      'pgCno로 결제를 조회하세요. 게이트웨이가 실제로 승인한 금액입니다.',
      '주문 금액보다 적다면 그곳에서 결제를 전액 취소하고 고객에게 다시 결제하도록 안내하세요.',
      '주문 금액과 같다면 쇼핑몰이 예상 금액을 잘못 등록한 것입니다. 결제는 유효합니다(메모에 그렇게 적으세요).',
    ],
    engineers: [CANCEL_API, '터미널에서 주문 보기: `noti-receiver orders show <shopOrderNo>`.', RESOLVE_CLI],
  },
  duplicate_payment: {
    name: '이중 결제',
    line: '한 주문이 두 번 이상 결제되어 받아야 할 금액보다 많습니다.',
    means: '한 주문에 서로 다른 결제(pgCno가 다름)가 둘 이상 있고, 취소를 반영해도 예상보다 많은 금액이 남아 있습니다. 고객에게 두 번 청구되었습니다.',
    console: [
      '주문을 여세요. 타임라인에 모든 결제가 pgCno와 금액과 함께 있습니다.',
      '남길 결제(보통 첫 결제)를 정하고, 추가 결제의 pgCno를 적어 두세요.',
      '취소하면 게이트웨이의 취소 통지가 불일치를 저절로 해결합니다(해결한 사람: 원장(자동)). 돈이 다른 방법(계좌 이체)으로 돌아갔을 때만 직접 해결하세요.',
      CANCEL_HERE,
      RESOLVE,
    ],
    portal: [
      '두 결제를 각각 pgCno로 조회하고, 추가 결제의 취소가 이미 진행 중이지 않은지 확인하세요.',
      '추가 결제를 전액 취소하세요.',
    ],
    engineers: [CANCEL_API, RESOLVE_CLI],
  },
  over_cancel: {
    name: '초과 취소',
    line: '이 주문에서 결제된 금액보다 많이 취소되었습니다.',
    means: '유예 시간이 지난 뒤에도 취소 합계가 승인 및 입금 합계를 넘습니다. 늦게 도착한 승인이 있으면 자동으로 해결됩니다.',
    console: [
      '주문을 열고 타임라인에서 취소와 결제를 비교하세요.',
      '「거부」 화면에서 주문번호로 찾아보세요. 이 주문의 승인이 거부된 것이 흔한 원인입니다. 거부한 설정이 고쳐졌다면 그 건에서 「재처리」를 누르세요. 불일치는 저절로 해결됩니다.',
      RESOLVE,
    ],
    portal: [
      'pgCno로 결제를 조회하세요. 결제가 있는지, 취소된 금액이 얼마인지 확인하세요.',
      '게이트웨이가 실제로 결제보다 많이 환불했다면 차액을 게이트웨이와 정산하세요.',
    ],
    engineers: [
      '장부가 생기기 전에 저장된 결제는 장부에 없습니다: `noti-receiver ledger backfill`.',
      '터미널에서 재처리: `noti-receiver rejections list`, 그다음 `noti-receiver rejections reprocess <id>`.',
      RESOLVE_CLI,
    ],
  },
  remaining_mismatch: {
    name: '남은 금액 불일치',
    line: '게이트웨이가 알린 취소 후 잔액이 장부와 다릅니다.',
    means: '유예 시간이 지난 뒤, 마지막 부분 취소가 알린 잔액(`cancelRemainAmount`)이 장부가 받은 결제와 취소로 계산한 잔액과 다릅니다. 통지가 하나 빠졌을 가능성이 큽니다.',
    console: [
      '주문을 여세요. 타임라인에 장부가 받은 취소가 있습니다.',
      '「거부」와 「충돌」 화면에서 이 주문의 거부되었거나 내용이 다른 통지를 찾아보세요. 거부된 건은 원인을 고친 뒤 「재처리」하세요.',
      RESOLVE,
    ],
    portal: [
      'pgCno로 결제를 조회해 취소 내역을 주문의 타임라인과 비교하세요. 믿을 것은 관리자 페이지의 잔액입니다.',
      '관리자 페이지에는 있고 주문에는 없는 취소는 빠진 통지입니다. 게이트웨이에 재전송을 요청하거나, 고객이 쇼핑몰이 청구한 금액만 내도록 차액을 정산하세요.',
    ],
    engineers: ['터미널에서 비교: `noti-receiver orders show <shopOrderNo>`, `noti-receiver events list --order <shopOrderNo>`.', RESOLVE_CLI],
  },
  refund_transfer_failed: {
    name: '환불 이체 실패',
    line: '환불금을 고객에게 이체하지 못해 다시 환불해야 합니다.',
    means: '이벤트 51: 게이트웨이가 환불금을 이체하지 못했습니다(주로 가상계좌의 해지되었거나 잘못된 계좌). 고객은 돈을 받지 못했습니다.',
    console: [
      '주문을 여세요. 타임라인에 실패한 환불과 그 pgCno가, 상세에 은행의 실패 코드(resCd)가 있습니다.',
      '고객에게 연락해 올바른 환불 계좌를 받으세요.',
      '같은 결제의 환불이 완료되면 불일치는 저절로 해결됩니다. 돈이 다른 방법으로 돌아갔다면:',
      RESOLVE,
    ],
    portal: [
      'pgCno로 환불 건을 조회해 은행의 사유를 확인하세요.',
      '바로잡은 계좌로 그곳에서 환불을 다시 하세요(또는 고객에게 직접 지급하세요).',
    ],
    engineers: [RESOLVE_CLI],
  },
  unexpected_payment: {
    name: '예상하지 않은 결제',
    line: '쇼핑몰이 등록하지 않은 주문에 결제가 들어왔습니다.',
    means: '`LEDGER_REQUIRE_EXPECTATION=true`일 때, 예상 금액이 등록되지 않은 주문에 결제나 입금이 들어왔습니다. 쇼핑몰이 만든 주문이 아니거나 등록을 빠뜨렸습니다.',
    console: [
      '주문을 여세요. 상점 ID(`mallId`)와 결제, 그 결제의 `pgCno`가 있습니다.',
      '쇼핑몰 시스템에서 주문번호를 찾아보고, 상점 ID가 우리 것인지 확인하세요.',
      CANCEL_HERE,
      RESOLVE,
    ],
    portal: [
      'pgCno로 결제를 조회하세요.',
      '아무도 주문하지 않았다면 그곳에서 결제를 전액 취소하세요.',
    ],
    engineers: [
      '실제 주문이라면 예상 금액을 등록하세요: `PUT /v1/orders/<mallId>/<shopOrderNo>/expectation` (그 뒤로는 금액을 평소처럼 검사합니다).',
      CANCEL_API,
      RESOLVE_CLI,
    ],
  },
  payment_after_expiry: {
    name: '만료 후 결제',
    line: '주문이 만료된 뒤에 고객이 결제했습니다.',
    means: '예상의 `expiresAt` 이후에 결제나 입금이 있었습니다. 쇼핑몰이 이미 재고를 풀었거나 주문을 취소했을 수 있습니다.',
    console: [
      '주문을 여세요. 결제 시각과 예상의 만료 시각이 함께 있습니다.',
      '쇼핑몰이 아직 주문을 유지하는지(재고, 배송) 확인하세요. 아직 보낼 수 있다면 그렇게 적고 해결하세요.',
      CANCEL_HERE,
      RESOLVE,
    ],
    portal: [
      '보낼 수 없다면 pgCno로 결제를 조회해 취소하세요(가상계좌 입금은 그곳에서 환불합니다).',
    ],
    engineers: [CANCEL_API, RESOLVE_CLI],
  },
  conflicting_notification: {
    name: '충돌하는 통지',
    line: '게이트웨이가 금액이나 결과가 다른 통지를 다시 보냈습니다.',
    means: '이미 저장된 키로 다시 온 통지의 금액 항목(금액, 취소 금액, 잔액, resCd)이 다르거나 다른 주문을 가리킵니다(한 pgCno가 두 주문번호로 온 경우, 두 주문 모두에 표시됩니다). 처음 저장된 내용이 계속 유효하며, 두 내용 모두 상세에 있습니다.',
    console: [
      '주문을 연 뒤 「충돌」 화면에서 두 내용을 항목별로 비교하세요.',
      '처음 내용이 맞다면 그렇게 적고 해결하세요. 나중 내용이 맞다면 장부는 여전히 처음 것을 세므로 쇼핑몰 기록을 직접 바로잡으세요.',
      RESOLVE,
    ],
    portal: [
      'pgCno로 결제를 조회해 어느 쪽이 맞는지 확인하세요.',
      '나중 내용이 맞다면 게이트웨이에 기록 정정을 요청하고, 맞는 금액에 따라 돈을 정산하세요.',
    ],
    engineers: ['터미널에서 나란히 보기: `noti-receiver conflicts list`, 그다음 `noti-receiver conflicts show <id>`.', RESOLVE_CLI],
  },
  refused_notification: {
    name: '거부된 통지',
    line: '이 주문의 통지가 유효하지 않아 거부되었고 집계에 빠져 있습니다.',
    means: '수신기가 이 주문을 가리키는 통지를 거부했습니다(잘못된 상점 ID `mallId`, 잘못된 항목). 거부 목록에 보관되어 있으며, 받아들여질 때까지 주문의 금액에 반영되지 않습니다.',
    console: [
      '주문을 연 뒤 「거부」 화면에서 거부된 통지와 그 사유를 확인하세요.',
      '설정 때문에 거부되었다면 개발자에게 수정을 요청하고, 그 뒤 거부 건에서 「재처리」를 누르세요. 받아들여지면 불일치는 저절로 해결됩니다.',
      '게이트웨이가 잘못 보낸 본문은 계속 거부됩니다. 게이트웨이와 주문을 정산한 뒤:',
      RESOLVE,
    ],
    portal: [
      'pgCno로 결제를 조회해 거부된 통지가 무엇을 알렸어야 하는지 확인하세요.',
    ],
    engineers: [
      '흔한 원인은 설정입니다: `MALL_IDS`, `GATEWAY_ENV`, 허용 목록. 고친 뒤 재시작하세요.',
      '터미널에서 재처리: `noti-receiver rejections show <id>`, 그다음 `noti-receiver rejections reprocess <id>`.',
      RESOLVE_CLI,
    ],
  },
  unknown_refund_amount: {
    name: '환불 금액 알 수 없음',
    line: '장부가 금액을 알아낼 수 없는 환불이나 취소가 들어왔습니다.',
    means: '이벤트 50 또는 20에 금액이 없고, 그것이 가리키는 것(입금, 확인하는 취소, 결제의 잔액)으로도 금액을 알 수 없습니다. 주문 금액에서 빠져 있습니다.',
    console: [
      '주문을 여세요. 타임라인에 환불이나 취소와 그 pgCno가 있습니다.',
      RESOLVE,
    ],
    portal: [
      'pgCno(또는 cancelPgCno)로 환불이나 취소를 조회해 금액을 확인하고, 그 금액을 메모에 적으세요.',
      '주문 금액에 반영해야 한다면 게이트웨이에 금액이 담긴 통지를 다시 보내 달라고 요청하세요.',
    ],
    engineers: [RESOLVE_CLI],
  },
  gateway_amount_differs: {
    name: '게이트웨이 거래내역과 금액 다름',
    line: '게이트웨이 거래내역의 금액이 이 수신기가 받은 통지의 금액과 다릅니다.',
    means: '가져온 거래내역(가맹점 관리자 페이지의 기록)이 결제나 취소를 통지와 다른 금액으로 보여 줍니다. 통지에는 서명이 없으므로 거래내역이 독립된 기록이며, 통지 금액이 변조되었을 수 있습니다.',
    console: [
      '주문을 여세요. 불일치에 거래내역 금액과 통지 금액, pgCno, 거래내역의 행 번호가 있습니다.',
      '정리될 때까지 통지 금액을 믿고 배송하거나 환불하지 마세요.',
      RESOLVE,
    ],
    portal: [
      'pgCno(또는 cancelPgCno)로 거래를 조회해 게이트웨이가 실제로 처리한 금액을 확인하세요.',
      '관리자 페이지가 거래내역과 같다면 통지가 위조되었거나 잘못된 것이므로 게이트웨이와 주문을 정산하세요.',
    ],
    engineers: ['터미널에서 주문 보기: `noti-receiver orders show <shopOrderNo>`; 그날의 대사: `noti-receiver reconcile list --day <YYYY-MM-DD>`.', RESOLVE_CLI],
  },
  gateway_status_differs: {
    name: '게이트웨이 거래내역과 상태 다름',
    line: '게이트웨이 거래내역은 취소나 실패라고 하는데 장부는 결제를 보유하고 있거나, 그 반대입니다.',
    means: '가져온 거래내역이 이 수신기가 받은 통지와 다른 상태를 보여 줍니다: 수신기가 모르는 취소, 게이트웨이가 실패 처리한 결제, 게이트웨이에 없는 취소.',
    console: [
      '주문을 여세요. 불일치에 거래내역의 상태와 장부의 상태, pgCno가 있습니다.',
      '여기에 없는 취소라면 게이트웨이에 통지를 다시 보내 달라고 하세요(관리자 페이지 단계 참고). 통지가 들어오면 장부가 불일치를 저절로 해결합니다.',
      RESOLVE,
    ],
    portal: [
      'pgCno로 거래를 조회해 게이트웨이가 처리한 상태와 취소를 확인하세요.',
      '거래관리 → 노티조회에서 빠진 통지를 다시 보내세요.',
    ],
    engineers: ['터미널에서 그날의 대사: `noti-receiver reconcile list --day <YYYY-MM-DD>`.', RESOLVE_CLI],
  },
  notification_missing: {
    name: '통지 누락',
    line: '게이트웨이 거래내역에 있는 거래의 통지를 이 수신기가 받은 적이 없습니다.',
    means: '가져온 거래내역에 수신기가 받아들인 적 없는 결제나 취소(그 pgCno 또는 cancelPgCno)가 있습니다: 게이트웨이가 재전송을 포기했거나, 통지가 거부되었거나, 이 서비스에 닿지 않았습니다. 주문 금액에 빠져 있습니다.',
    console: [
      '주문을 여세요. 불일치에 pgCno, 취소라면 cancelPgCno, 거래내역 금액과 행 번호가 있습니다. 파일에 주문번호가 없는 행은 아직 주문이 없습니다. 대사 화면에 "파일에 주문번호 없음"으로 pgCno, 금액, 행 번호와 함께 나옵니다.',
      '주문에 거부된 통지도 있다면 먼저 그 원인을 고치세요(그 안내 참고).',
      '게이트웨이에 통지를 다시 보내 달라고 하세요(아래 관리자 페이지 단계). 받아들여지면 장부가 이 불일치를 저절로 해결합니다.',
      RESOLVE,
    ],
    portal: [
      '거래관리 → 노티조회에서 pgCno를 찾아 통지를 다시 보내세요.',
    ],
    engineers: ['통지 주소(notifyUrl), 허용 목록, 거부 목록(`noti-receiver rejections list`)에서 들어오지 않은 이유를 확인하세요.', RESOLVE_CLI],
  },
  not_in_gateway_list: {
    name: '게이트웨이 거래내역에 없음',
    line: '여기서 받은 통지가 그날의 게이트웨이 거래내역에 없습니다: 위조되었을 수 있습니다.',
    means: '수신기가 가져온 거래내역이 다루는 날의 결제나 취소를 받았는데 게이트웨이 거래내역에는 없습니다. 통지에는 서명이 없으므로(보낸 주소만 확인) 게이트웨이가 모르는 결제는 위조된 통지의 신호입니다.',
    console: [
      '주문을 여세요. 불일치에 pgCno, 날짜, 통지 금액이 있습니다.',
      '게이트웨이가 거래를 확인할 때까지 배송하거나 환불하지 마세요.',
      RESOLVE,
    ],
    portal: [
      'pgCno를 조회하세요. 게이트웨이가 모르는 거래라면 통지가 위조된 것이니 신고하고 주문을 미결제로 두세요.',
      '게이트웨이가 다른 날에 보여 준다면 그날의 거래내역을 가져오세요. 거래내역에 나타나면 장부가 불일치를 해결합니다.',
    ],
    engineers: ['이벤트 화면이나 `noti-receiver events show <id>`에서 통지를 보낸 주소를 확인하고 `EXTRA_ALLOWED_IPS`, `TRUST_PROXY`를 점검하세요.', RESOLVE_CLI],
  },
};
