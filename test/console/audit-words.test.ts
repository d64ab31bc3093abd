import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { translatorFor } from '../../src/console/i18n/translator';
import { AUDIT_ACTIONS, auditActor, auditDetail, auditSubject } from '../../src/console/pages/audit-words';

const SRC = join(__dirname, '..', '..', 'src');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}
const text = (value: unknown) => (typeof value === 'string' ? value : (value as { text: string }).text.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"'));

describe("the audit's words", () => {
  test('every action the service audits (console, CLI, store) has a name in the catalogues', () => {
    const written = new Set<string>();
    for (const source of sources(SRC)) {
      for (const [, action] of source.matchAll(/recordAudit\(\{[^}]*?action: '([^']+)'/g)) written.add(action!);
      for (const [, action] of source.matchAll(/\baudit\(deps, [^,]+(?:\([^)]*\))?, '([^']+)'/g)) written.add(action!);
    }
    expect(written.size).toBeGreaterThanOrEqual(10);
    expect([...written].filter((action) => !(action in AUDIT_ACTIONS))).toEqual([]);
  });

  test.each([
    ['signed in', 'role admin', '역할: 관리자'],
    ['signed in', 'through the sign-on proxy', '통합 로그인 프록시를 통해'],
    ['sign-in refused', 'wrong token (3 from this address within 10 minutes)', '잘못된 토큰 (이 주소에서 10분 안에 3번째)'],
    ['sign-in refused', 'the sign-on proxy names "lee@shop.example", who is no operator', '통합 로그인 프록시가 알린 이름 lee@shop.example: 운영자가 아님'],
    ['sign-in refused', 'the sign-on proxy names "admin", who signs in with a token', '통합 로그인 프록시가 알린 이름 admin: 토큰으로 로그인하는 운영자'],
    ['added operator', 'viewer', '역할: 조회 전용'],
    ['added operator', 'operator, single sign-on', '역할: 처리 담당, 통합 로그인'],
    ['requeued all dead', '12 event(s)', '이벤트 12건'],
    ['reprocessed', 'accepted as evt_0123', '저장됨: 이벤트 evt_0123'],
    ['reprocessed', 'already-reprocessed as evt_0123', '이미 재처리됨: 이벤트 evt_0123'],
  ])('%s: %j reads in Korean', (action, detail, korean) => {
    expect(text(auditDetail(translatorFor('ko'), action, detail))).toBe(korean);
  });

  test('English pages say what the log says', () => {
    const en = translatorFor('en');
    for (const detail of ['role admin', 'wrong token (3 from this address within 10 minutes)', 'the sign-on proxy names "lee@shop.example", who is no operator', 'operator, single sign-on']) {
      expect(text(auditDetail(en, detail.startsWith('operator') ? 'added operator' : 'signed in', detail))).toBe(detail.replace(/^operator/, 'role operator'));
    }
    expect(text(auditDetail(en, 'removed operator', '1 session(s) ended'))).toBe('1 session ended');
  });

  test('a subject naming a rejection is said in the page\'s words; a detail of no known form is kept, marked as English', () => {
    expect(auditSubject(translatorFor('ko'), 'rejection 12')).toBe('거부 12');
    expect(text(auditDetail(translatorFor('ko'), 'reprocess refused', 'mallId T9 is not served'))).toBe('mallId T9 is not served');
    expect((auditDetail(translatorFor('ko'), 'reprocess refused', 'x') as { text: string }).text).toContain('lang="en"');
  });

  test('who acted: the service\'s words around a name in the page\'s language, the name and address as stored', () => {
    const ko = translatorFor('ko');
    expect(text(auditActor(ko, 'kim (internal API)'))).toBe('kim (내부 API)');
    expect(text(auditActor(ko, 'unidentified (203.0.113.9)'))).toBe('미확인 (203.0.113.9)');
    expect(text(auditActor(ko, 'kim (10.0.0.7)'))).toBe('kim (10.0.0.7)');
    expect(text(auditActor(translatorFor('en'), 'kim (internal API)'))).toBe('kim (internal API)');
  });
});
