/**
 * What the CLI prints comes partly from the internet (a shop order number, the gateway's text, a
 * resolution note sent through the API), and a terminal obeys the control characters it is
 * given: ESC sequences can rewrite the screen, retitle the window or hide lines, a bidi override
 * can make `evt_abc` read as another id. So every control character is shown as its escape,
 * visibly: C0 (`\x1b`, `\x07`), DEL, C1 (`\x9b`, a one-byte CSI), and the bidi embeddings,
 * overrides and isolates (`\u202e`).
 */
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_NEWLINE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function escaped(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text for a terminal: every control character escaped; line breaks stay unless `oneLine` (a table cell). */
export function terminalText(text: string, oneLine = false): string {
  return text.replace(oneLine ? CONTROLS : CONTROLS_BUT_NEWLINE, escaped);
}

/**
 * JSON text for a terminal, still the same JSON: JSON.stringify escapes C0 itself, and the
 * others are written as JSON's own `\u` escapes, which a parser reads back as the same characters.
 */
export function terminalJson(json: string): string {
  return json.replace(CONTROLS_BUT_NEWLINE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
