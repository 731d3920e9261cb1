/**
 * What one line of GitBook markdown starts (markdown-lex.ts keeps the state between lines):
 * list markers, thematic breaks, code fences, CommonMark's HTML blocks, a line holding only a
 * `{% %}` tag, and a reference definition. Each looks at its line only.
 */
import { isAttributeNameChar, isAttributeNameStart, isLetter, isTagNameChar, isUnquotedValueChar } from './char-classes';
import { decodeHref, type HrefSlot, isAsciiPunctuation } from './href-syntax';
import type { WorkMeter } from './work-meter';

const HTML_RAW_BLOCK = /^<(?:pre|script|style|textarea)(?:[\s>]|$)/i;
const HTML_BLOCK_NAMES =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const HTML_BLOCK_TAG = new RegExp(`^</?(?:${HTML_BLOCK_NAMES})(?:[\\s>]|/>|$)`, 'i');
export const HEADING = /^#{1,6}(?:[ \t]|$)/;

/** Where a list marker (`-`, `+`, `*`, `1.`, `1)`) at `pos` ends, or -1. */
export function listMarkerEnd(text: string, pos: number, end: number): number {
  const c = text.charCodeAt(pos);
  let j = pos;
  if (c === 0x2d || c === 0x2b || c === 0x2a) j++;
  else {
    while (j < end && j - pos < 9 && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
    if (j === pos || (text[j] !== '.' && text[j] !== ')')) return -1;
    j++;
  }
  const after = text.charCodeAt(j);
  return j >= end || after === 0x20 || after === 0x09 ? j : -1;
}

/** `***`, `- - -`, `___`: three or more of one mark and nothing else. */
export function isThematicBreak(text: string, pos: number, end: number, meter: WorkMeter): boolean {
  const mark = text.charCodeAt(pos);
  if (mark !== 0x2a && mark !== 0x2d && mark !== 0x5f) return false;
  let count = 0;
  for (let j = pos; j < end; j++) {
    meter.steps++;
    const c = text.charCodeAt(j);
    if (c === mark) count++;
    else if (c !== 0x20 && c !== 0x09) return false;
  }
  return count >= 3;
}

/** A code fence opening at `pos`: three or more backticks (with no backtick after them) or tildes. */
export function openingFence(text: string, pos: number, end: number, meter: WorkMeter): { char: number; length: number } | null {
  const char = text.charCodeAt(pos);
  let j = pos;
  while (j < end && text.charCodeAt(j) === char) j++;
  meter.steps += end - pos;
  if (j - pos < 3 || (char === 0x60 && text.slice(j, end).includes('`'))) return null;
  return { char, length: j - pos };
}

export function isClosingFence(text: string, pos: number, end: number, fence: { char: number; length: number }): boolean {
  let j = pos;
  while (j < end && text.charCodeAt(j) === fence.char) j++;
  if (j - pos < fence.length) return false;
  for (; j < end; j++) if (text.charCodeAt(j) !== 0x20 && text.charCodeAt(j) !== 0x09) return false;
  return true;
}

/** CommonMark's HTML block starts: `end` is the string that closes it ('' = a blank line); `raw`: holds nothing. */
export function htmlBlockStart(text: string, pos: number, end: number, mayBeType7: boolean, meter: WorkMeter): { end: string; raw: boolean } | null {
  const head = text.slice(pos, Math.min(end, pos + 16));
  if (HTML_RAW_BLOCK.test(head)) {
    const name = /^<([a-z]+)/i.exec(head)![1]!.toLowerCase();
    return { end: `</${name}>`, raw: false };
  }
  if (head.startsWith('<!--')) return { end: '-->', raw: true };
  if (head.startsWith('<?')) return { end: '?>', raw: true };
  if (head.startsWith('<![CDATA[')) return { end: ']]>', raw: true };
  if (/^<![A-Za-z]/.test(head)) return { end: '>', raw: true };
  if (HTML_BLOCK_TAG.test(head)) return { end: '', raw: false };
  if (!mayBeType7) return null;
  return isLoneTag(text, pos, end, meter) ? { end: '', raw: false } : null;
}

/** A complete start or end tag alone on its line (HTML block type 7), read within the line only. */
function isLoneTag(text: string, pos: number, end: number, meter: WorkMeter): boolean {
  const blanks = (j: number): number => {
    while (j < end && (text[j] === ' ' || text[j] === '\t')) j++;
    return j;
  };
  meter.steps += end - pos;
  let j = pos + 1;
  const closing = text[j] === '/';
  if (closing) j++;
  if (!isLetter(text.charCodeAt(j))) return false;
  while (j < end && isTagNameChar(text.charCodeAt(j))) j++;
  for (;;) {
    const gap = j;
    j = blanks(j);
    if (text[j] === '>' || (!closing && text[j] === '/' && text[j + 1] === '>')) return blanks(j + (text[j] === '>' ? 1 : 2)) >= end;
    if (closing || j === gap || j >= end || !isAttributeNameStart(text.charCodeAt(j))) return false;
    while (j < end && isAttributeNameChar(text.charCodeAt(j))) j++;
    const k = blanks(j);
    if (text[k] !== '=') continue;
    let m = blanks(k + 1);
    const quote = text[m];
    if (quote === '"' || quote === "'") {
      for (m++; m < end && text[m] !== quote; m++);
      if (m >= end) return false;
      j = m + 1;
    } else {
      const valueStart = m;
      while (m < end && isUnquotedValueChar(text.charCodeAt(m))) m++;
      if (m === valueStart) return false;
      j = m;
    }
  }
}

/** The line holds one `{% %}` tag and nothing else (after its indentation). */
export function isTagOnlyLine(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith('{%') && trimmed.indexOf('%}', 2) === trimmed.length - 2;
}

/** The line from `pos` (its content, past the indentation) holds one `{% %}` tag and nothing else. */
export function startsTagLine(text: string, pos: number, end: number, meter: WorkMeter): boolean {
  if (text.charCodeAt(pos) !== 0x7b || text.charCodeAt(pos + 1) !== 0x25) return false;
  meter.steps += end - pos;
  return isTagOnlyLine(text.slice(pos, end));
}

export function lineContains(text: string, start: number, end: number, needle: string, meter: WorkMeter): boolean {
  const at = text.slice(start, end).toLowerCase().indexOf(needle);
  meter.steps += end - start;
  return at >= 0;
}

/** `[label]: destination "title"` on one line (the title may go on), or null. */
export function definitionAt(text: string, pos: number, end: number, meter: WorkMeter): HrefSlot | null {
  // `[^1]: …` is a footnote (GFM, which GitBook writes), whose text may hold links of its own.
  if (text[pos + 1] === '^') return null;
  let j = pos + 1;
  let label = false;
  for (; j < end && text[j] !== ']'; j++) {
    meter.steps++;
    const c = text.charCodeAt(j);
    if (c === 0x5b || j - pos > 1000) return null;
    if (c === 0x5c && j + 1 < end && isAsciiPunctuation(text.charCodeAt(j + 1))) j++;
    if (c !== 0x20 && c !== 0x09) label = true;
  }
  if (!label || j >= end || text[j + 1] !== ':') return null;
  let p = j + 2;
  while (p < end && (text[p] === ' ' || text[p] === '\t')) p++;
  if (p >= end) return null;
  let href: HrefSlot;
  let after: number;
  if (text[p] === '<') {
    let q = p + 1;
    for (; q < end && text[q] !== '>'; q++) {
      if (text[q] === '<') return null;
      if (text[q] === '\\' && q + 1 < end && isAsciiPunctuation(text.charCodeAt(q + 1))) q++;
    }
    if (q >= end) return null;
    href = { start: p + 1, end: q, delimiter: '<', value: decodeHref(text.slice(p + 1, q), 'definition', '<') };
    after = q + 1;
  } else {
    let q = p;
    let depth = 0;
    for (; q < end && text.charCodeAt(q) > 0x20 && text.charCodeAt(q) !== 0x7f; q++) {
      const c = text[q];
      if (c === '\\' && q + 1 < end && isAsciiPunctuation(text.charCodeAt(q + 1))) q++;
      else if (c === '(') depth++;
      else if (c === ')' && --depth < 0) return null;
    }
    if (depth !== 0) return null;
    href = { start: p, end: q, delimiter: '', value: decodeHref(text.slice(p, q), 'definition', '') };
    after = q;
  }
  meter.steps += after - pos;
  let r = after;
  while (r < end && (text[r] === ' ' || text[r] === '\t')) r++;
  if (r >= end) return href;
  const opener = text[r];
  if (r === after || (opener !== '"' && opener !== "'" && opener !== '(')) return null;
  const closer = opener === '(' ? ')' : opener;
  for (let q = r + 1; q < end; q++) {
    if (text[q] === '\\') q++;
    else if (text[q] === closer) return /^[ \t]*$/.test(text.slice(q + 1, end)) ? href : null;
  }
  return href;
}
