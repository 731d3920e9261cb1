/** Character classes of CommonMark and HTML syntax, by UTF-16 code unit. */

const LT = 0x3c;
const GT = 0x3e;
const BACKTICK = 0x60;

export function isSpaceOrControl(code: number): boolean {
  return code <= 0x20 || code === 0x7f;
}

export function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;
}

export function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

export function isTagNameChar(code: number): boolean {
  return isLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d;
}

export function isAttributeNameStart(code: number): boolean {
  return isLetter(code) || code === 0x5f || code === 0x3a;
}

export function isAttributeNameChar(code: number): boolean {
  return isAttributeNameStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x2d;
}

export function isUnquotedValueChar(code: number): boolean {
  return !isWhitespace(code) && code !== 0x22 && code !== 0x27 && code !== 0x3d && code !== LT && code !== GT && code !== BACKTICK;
}
