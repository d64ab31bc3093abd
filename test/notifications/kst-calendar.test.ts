import { KST_OFFSET_MS, kstTimestamp } from '../../src/notifications/kst-date';

/** What the gateway's stamps were checked against before: Date parses the text and must print it back unchanged. */
function roundTrip(y: string, mo: string, d: string, h: string, mi: string, s: string): string | null {
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}+09:00`;
  const parsed = new Date(iso);
  if (Number.isNaN(parsed.getTime())) return null;
  const back = new Date(parsed.getTime() + KST_OFFSET_MS).toISOString();
  return back.startsWith(`${y}-${mo}-${d}T${h}:${mi}:${s}`) ? iso : null;
}

const two = (n: number) => String(n).padStart(2, '0');

describe('KST stamps', () => {
  it("accept exactly the days and times Date's own round trip accepts", () => {
    let compared = 0;
    const differing: string[] = [];
    for (const y of ['0000', '1900', '1999', '2000', '2024', '2026', '2100', '2400', '9999']) {
      for (let mo = 0; mo <= 13; mo += 1) {
        for (let d = 0; d <= 32; d += 1) {
          for (const [h, mi, s] of [['00', '00', '00'], ['23', '59', '59'], ['24', '00', '00'], ['12', '60', '00'], ['12', '00', '60'], ['99', '99', '99']]) {
            const stamp = `${y}${two(mo)}${two(d)}${h}${mi}${s}`;
            if (kstTimestamp(stamp) !== roundTrip(y, two(mo), two(d), h!, mi!, s!)) differing.push(stamp);
            compared += 1;
          }
        }
      }
    }
    expect(differing).toEqual([]);
    expect(compared).toBeGreaterThan(20_000);
  });
});
