import iconv from 'iconv-lite';

/** Whether CP949 holds a character, by its code point; bounded, since a notification's text picks which are asked. */
const HELD = new Map<number, boolean>();

function held(character: string): boolean {
  const code = character.codePointAt(0)!;
  let answer = HELD.get(code);
  if (answer === undefined) {
    answer = iconv.decode(iconv.encode(character, 'cp949'), 'cp949') === character;
    if (HELD.size < 65_536) HELD.set(code, answer);
  }
  return answer;
}

/**
 * Text as CP949 can carry it. A character the code page lacks (an emoji, a letter outside Korean,
 * Japanese and the common Chinese characters) is written as its code point, `[U+1F600]`, never as
 * the `?` an encoder puts in its place: a `?` reads as a real character, and a name or a product
 * would silently change. The UTF-8 file keeps every character as it came.
 */
function cp949Text(text: string): string {
  return /[^\u0000-\u007F]/.test(text) ? text.replace(/[^\u0000-\u007F]/gu, (ch) => (held(ch) ? ch : `[U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)) : text;
}

export function cp949Bytes(text: string): Buffer {
  return iconv.encode(cp949Text(text), 'cp949');
}
