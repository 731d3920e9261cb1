/**
 * How an href is written in each place GitBook markdown holds one, both ways: the text
 * between the delimiters -> the value it means (decode), and a value -> the text that means
 * exactly that value there (encode).
 *
 * Places (`HrefContext`):
 * - 'markdown' / 'definition': a link or image destination, or a reference definition's; bare
 *   (`(a.md)`) or in angle brackets (`(<a b.md>)`). Backslash escapes and character
 *   references are decoded, as CommonMark does.
 * - 'html': an HTML attribute value, quoted or not. Character references are decoded.
 * - 'block': a `{% … %}` argument, quoted or not. Only `\` before the quote or another `\` is
 *   an escape (GitBook writes paths there raw, spaces included).
 *
 * Encoding writes the value as is wherever the place can hold it, and otherwise escapes it
 * without changing it (`\(`, `&quot;`, `&#96;`); only what a place cannot hold at all (a line
 * break in a destination; quotes, backticks, `<>|` or `%}` in a block argument) is
 * percent-encoded, which a URL reads the same. A bare destination that needs angle brackets,
 * or an unquoted attribute that needs quotes, gets them.
 *
 * Character references: numeric ones and the few named ones hrefs carry are decoded; other
 * names stay as written (a value holding them is never rewritten, see references.ts).
 */

export type HrefContext = 'markdown' | 'definition' | 'html' | 'block';
/** '' bare, '<' markdown angle brackets, or the quote around an attribute value. */
export type HrefDelimiter = '' | '<' | '"' | "'";

/** Where an href is written: offsets of its text (inside `<…>` or quotes), its delimiter, its decoded value. */
export interface HrefSlot {
  start: number;
  end: number;
  value: string;
  delimiter: HrefDelimiter;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function isAsciiPunctuation(code: number): boolean {
  return (code >= 0x21 && code <= 0x2f) || (code >= 0x3a && code <= 0x40) || (code >= 0x5b && code <= 0x60) || (code >= 0x7b && code <= 0x7e);
}

function isAlphanumeric(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** The end of a character reference's syntax starting at `i` (`&name;`, `&#12;`, `&#x1F;`), or -1. */
function entityEnd(text: string, i: number): number {
  let j = i + 1;
  if (text.charCodeAt(j) === 0x23 /* # */) {
    j++;
    const hex = text.charCodeAt(j) === 0x78 || text.charCodeAt(j) === 0x58;
    if (hex) j++;
    const digitsStart = j;
    const max = hex ? 6 : 7;
    while (j - digitsStart < max && j < text.length && (hex ? /[0-9a-fA-F]/ : /[0-9]/).test(text[j]!)) j++;
    if (j === digitsStart) return -1;
  } else {
    const nameStart = j;
    while (j - nameStart < 32 && j < text.length && isAlphanumeric(text.charCodeAt(j))) j++;
    if (j === nameStart || !/[A-Za-z]/.test(text[nameStart]!)) return -1;
  }
  return text.charCodeAt(j) === 0x3b /* ; */ ? j + 1 : -1;
}

/** The character a reference at `i` stands for and where it ends, or null (unknown name, no `;`). */
function decodeEntityAt(text: string, i: number): { value: string; end: number } | null {
  const end = entityEnd(text, i);
  if (end < 0) return null;
  const body = text.slice(i + 1, end - 1);
  if (body[0] !== '#') {
    const named = NAMED_ENTITIES[body];
    return named === undefined ? null : { value: named, end };
  }
  const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
  const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
  return { value: valid ? String.fromCodePoint(code) : '\ufffd', end };
}

export function decodeHref(raw: string, context: HrefContext, delimiter: HrefDelimiter): string {
  let out = '';
  for (let i = 0; i < raw.length; ) {
    const code = raw.charCodeAt(i);
    if (code === 0x5c /* \ */ && i + 1 < raw.length) {
      const next = raw.charCodeAt(i + 1);
      const escapes = context === 'block' ? next === 0x5c || raw[i + 1] === delimiter : context !== 'html' && isAsciiPunctuation(next);
      if (escapes) {
        out += raw[i + 1];
        i += 2;
        continue;
      }
    }
    if (code === 0x26 /* & */ && context !== 'block') {
      const entity = decodeEntityAt(raw, i);
      if (entity) {
        out += entity.value;
        i = entity.end;
        continue;
      }
    }
    out += raw[i];
    i++;
  }
  return out;
}

export function percentEncode(ch: string): string {
  const code = ch.charCodeAt(0);
  const lone = ch.length === 1 && code >= 0xd800 && code <= 0xdfff;
  return lone ? '%EF%BF%BD' : [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

function hasUnbalancedParentheses(value: string): boolean {
  let depth = 0;
  for (const ch of value) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return true;
  }
  return depth !== 0;
}

/** A space or control character other than a line break (those are percent-encoded anyway). */
function hasSpaceOrControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code <= 0x20 || code === 0x7f) && code !== 0x0a && code !== 0x0d) return true;
  }
  return false;
}

/** Which delimiter `value` needs in `context`, starting from the one it was written with. */
function delimiterFor(value: string, context: HrefContext, delimiter: HrefDelimiter): HrefDelimiter {
  if (delimiter !== '') return delimiter;
  if (context === 'markdown' || context === 'definition') {
    // `<` becomes `&lt;`, so only spaces and controls need the angle brackets.
    return (context === 'definition' && value === '') || hasSpaceOrControl(value) ? '<' : '';
  }
  if (context === 'html') return value === '' || /[\s"'=<>`]/.test(value) ? '"' : '';
  return value === '' || /\s/.test(value) ? '"' : '';
}

/**
 * The text that means `value` in `context`, and the delimiter to write it with (changed only
 * when needed). Besides what the place itself needs, the text never holds a raw `"`, `'`, `>`,
 * backtick or `%}`: any of them could close a quote, comment, code span or tag left open
 * earlier in the paragraph and so change what the rest of the line means.
 */
export function encodeHref(value: string, context: HrefContext, delimiter: HrefDelimiter): { text: string; delimiter: HrefDelimiter } {
  const target = delimiterFor(value, context, delimiter);
  const escapeParens = (context === 'markdown' || context === 'definition') && target === '' && hasUnbalancedParentheses(value);
  let text = '';
  for (let i = 0; i < value.length; i++) {
    if (context === 'html') text += encodeHtmlChar(value, i);
    else if (context === 'block') text += encodeBlockChar(value, i);
    else text += encodeMarkdownChar(value, i, escapeParens);
  }
  return { text, delimiter: target };
}

/** The `%` of a `{%` or `%}`, which would start or end a tag. */
function isTagPercent(value: string, i: number): boolean {
  return value[i] === '%' && (value[i - 1] === '{' || value[i + 1] === '}');
}

/** Characters an href holds only as a character reference (markdown destinations decode them too). */
const AS_REFERENCE: Readonly<Record<string, string>> = {
  '"': '&quot;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
  '`': '&#96;',
  '|': '&#124;',
  '%': '&#37;',
  '\n': '&#10;',
  '\r': '&#13;',
};

function encodeMarkdownChar(value: string, i: number, escapeParens: boolean): string {
  const ch = value[i]!;
  const next = value.charCodeAt(i + 1);
  if (ch === '\n' || ch === '\r') return percentEncode(ch);
  if (ch === '\\') return Number.isNaN(next) || isAsciiPunctuation(next) ? '\\\\' : '\\';
  if (ch === '&') return entityEnd(value, i) > 0 ? '\\&' : '&';
  // `{\%` and `%\}` keep `{%` and `%}` out of the text; `\|` keeps a table cell whole.
  if (ch === '|' || (ch === '%' && value[i - 1] === '{') || (ch === '}' && value[i - 1] === '%')) return `\\${ch}`;
  if (escapeParens && (ch === '(' || ch === ')')) return `\\${ch}`;
  return ch === '%' ? ch : (AS_REFERENCE[ch] ?? ch);
}

function encodeHtmlChar(value: string, i: number): string {
  const ch = value[i]!;
  if (ch === '&') return entityEnd(value, i) > 0 ? '&amp;' : '&';
  if (ch === '%' && !isTagPercent(value, i)) return ch;
  return AS_REFERENCE[ch] ?? ch;
}

const BLOCK_UNSAFE = new Set(['"', "'", '\\', '`', '|', '<', '>', '\n', '\r']);

function encodeBlockChar(value: string, i: number): string {
  const ch = value[i]!;
  // A block argument has no character references: what it cannot hold is percent-encoded.
  return BLOCK_UNSAFE.has(ch) || (ch === '%' && value[i + 1] === '}') ? percentEncode(ch) : ch;
}
