import { randomBytes } from 'node:crypto';
import { TOKEN_ADVICE, weakTokenReason } from '../../src/config/token-strength';

describe('a token an operator sets by hand', () => {
  it.each([
    ['abababababababab', /repeat a shorter pattern/],
    ['abcabcabcabcabca', /repeat a shorter pattern/],
    ['k3J9x0Qzk3J9x0Qz', /repeat a shorter pattern/],
    ['aaaabbbbccccdddd', /at least 6 different characters/],
    ['AaAaBbBbCcCcDdDd', /at least 6 different characters/],
    ['1234567890123456', /sequence or a keyboard walk/],
    ['9876543210987654', /sequence or a keyboard walk/],
    ['abcdefghijklmnopqrs', /sequence or a keyboard walk/],
    ['ZYXWVUTSRQPONMLK', /sequence or a keyboard walk/],
    ['qwertyuiopasdfghjkl', /sequence or a keyboard walk/],
    ['1q2w3e4r5t6y7u8i', /sequence or a keyboard walk/],
    ['1234567890123456789012345678901234567890', /repeat a shorter pattern/],
    ['0123456789abcdefghij', /sequence or a keyboard walk/],
  ])('%s is refused: %s', (token, reason) => {
    expect(weakTokenReason(token)).toMatch(reason);
  });

  it('is told how to make a good one', () => {
    expect(TOKEN_ADVICE).toContain('openssl rand -hex 32');
    expect(TOKEN_ADVICE).toContain("require('crypto').randomBytes(32).toString('hex')");
  });

  it('made the way the advice says (or as the console generates one) is accepted', () => {
    for (let i = 0; i < 2000; i += 1) {
      for (const token of [randomBytes(32).toString('hex'), randomBytes(24).toString('base64url'), randomBytes(16).toString('hex')]) {
        expect([token, weakTokenReason(token)]).toEqual([token, null]);
      }
    }
  });

  it.each(['test-api-token-0123456789abcdef', 'dev-token-0123456789abcdef', 'Xq7#mP2$vL9@wR4!'])('%s passes', (token) => {
    expect(weakTokenReason(token)).toBeNull();
  });
});
