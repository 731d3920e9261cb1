/**
 * The inline half of the GitBook markdown tokenizer (markdown-lex.ts does the lines): within
 * one paragraph or HTML block, finds link and image destinations, HTML start tags with their
 * attributes, and `{% … %}` tags, and steps over what hides them (code spans, comments,
 * autolinks). Precedence follows CommonMark: left to right, code spans, raw HTML and autolinks
 * win over link brackets; a link destination is read as raw text once its `](` is reached.
 * GitBook tags are read where they start and never span lines.
 *
 * Linear time: each forward search either consumes what it read, stops where the next search
 * of its kind would start anyway, or is cached (`find` remembers the next occurrence of a
 * string; the backtick runs of a paragraph are indexed once; link-destination.ts likewise).
 */
import { isAttributeNameChar, isAttributeNameStart, isLetter, isSpaceOrControl, isTagNameChar, isUnquotedValueChar, isWhitespace } from './char-classes';
import { decodeHref, type HrefSlot, isAsciiPunctuation } from './href-syntax';
import { DestinationReader } from './link-destination';
import { parseTag, type TagSyntax } from './tag-syntax';
import type { WorkMeter } from './work-meter';

export interface HtmlAttribute {
  /** Lower case. */
  name: string;
  value: HrefSlot | null;
}

export type Atom =
  | { type: 'link' | 'image' | 'definition'; at: number; href: HrefSlot }
  | { type: 'html'; at: number; name: string; attributes: HtmlAttribute[] }
  /** `inHtml`: read on a line of an HTML block, where the page shows it as text. */
  | { type: 'tag'; at: number; tag: TagSyntax; inHtml: boolean }
  | { type: 'unterminated-tag'; at: number };

interface Opener {
  image: boolean;
  serial: number;
}

const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
const LT = 0x3c;
const GT = 0x3e;

export class InlineScanner {
  /** For each searched string: the offset a search started from, and what it found there (-1: nothing further). */
  private readonly found = new Map<string, { from: number; at: number }>();
  private s = 0;
  private e = 0;
  private serial = 0;
  private markdown = true;
  private linkCutoff = 0;
  private runs: Map<number, { positions: number[]; next: number }> | null = null;
  private destinations: DestinationReader | null = null;

  constructor(
    private readonly text: string,
    private readonly meter: WorkMeter,
    private readonly atoms: Atom[],
  ) {}

  /** Scans `text.slice(s, e)`: a paragraph (markdown) or the lines of an HTML block (tags only). */
  scan(s: number, e: number, markdown: boolean): void {
    this.s = s;
    this.e = e;
    this.markdown = markdown;
    this.runs = null;
    this.destinations = null;
    const text = this.text;
    const openers: Opener[] = [];
    let i = s;
    while (i < e) {
      this.meter.steps++;
      const c = text.charCodeAt(i);
      if (c === 0x7b && text.charCodeAt(i + 1) === 0x25) i = this.tag(i);
      else if (c === LT) i = this.angle(i);
      else if (!markdown) i++;
      else if (c === BACKSLASH) i += i + 1 < e && isAsciiPunctuation(text.charCodeAt(i + 1)) ? 2 : 1;
      else if (c === BACKTICK) i = this.codeSpan(i);
      else if (c === 0x21 && text.charCodeAt(i + 1) === 0x5b) {
        openers.push({ image: true, serial: this.serial++ });
        i += 2;
      } else if (c === 0x5b) {
        openers.push({ image: false, serial: this.serial++ });
        i++;
      } else if (c === 0x5d) i = this.closeBracket(i, openers);
      else i++;
    }
  }

  /** The first occurrence of `needle` at or after `from` (-1 if none), remembering it for later searches. */
  private find(needle: string, from: number): number {
    const known = this.found.get(needle);
    if (known && from >= known.from && (known.at === -1 || known.at >= from)) return known.at;
    const at = this.text.indexOf(needle, from);
    this.meter.steps += (at === -1 ? this.text.length : at) - from + 1;
    this.found.set(needle, { from, at });
    return at;
  }

  private findInSegment(needle: string, from: number): number {
    const at = this.find(needle, from);
    return at >= 0 && at + needle.length <= this.e ? at : -1;
  }

  private tag(i: number): number {
    const newline = this.find('\n', i);
    const lineEnd = newline < 0 ? this.text.length : newline;
    const close = this.find('%}', i + 2);
    if (close < 0 || close >= lineEnd) {
      this.atoms.push({ type: 'unterminated-tag', at: i });
      return i + 2;
    }
    this.meter.steps += close + 2 - i;
    this.atoms.push({ type: 'tag', at: i, tag: parseTag(this.text, i, close + 2), inHtml: !this.markdown });
    return close + 2;
  }

  private codeSpan(i: number): number {
    const text = this.text;
    let j = i;
    while (j < this.e && text.charCodeAt(j) === BACKTICK) j++;
    const run = this.backtickRuns().get(j - i);
    if (run) {
      while (run.next < run.positions.length && run.positions[run.next]! <= i) {
        run.next++;
        this.meter.steps++;
      }
      if (run.next < run.positions.length) return run.positions[run.next]! + (j - i);
    }
    return j;
  }

  /** Every maximal run of backticks in the segment, by length (a code span closes on a run of its own length). */
  private backtickRuns(): Map<number, { positions: number[]; next: number }> {
    if (this.runs) return this.runs;
    const runs = new Map<number, { positions: number[]; next: number }>();
    const text = this.text;
    for (let i = this.s; i < this.e; ) {
      this.meter.steps++;
      if (text.charCodeAt(i) !== BACKTICK) {
        i++;
        continue;
      }
      let j = i;
      while (j < this.e && text.charCodeAt(j) === BACKTICK) j++;
      const entry = runs.get(j - i) ?? { positions: [], next: 0 };
      entry.positions.push(i);
      runs.set(j - i, entry);
      this.meter.steps += j - i;
      i = j;
    }
    this.runs = runs;
    return runs;
  }

  /** `<` starts a comment, a declaration, a closing tag, an autolink or a start tag: returns where scanning goes on. */
  private angle(i: number): number {
    const text = this.text;
    const next = text.charCodeAt(i + 1);
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', i)) {
        if (text.startsWith('<!-->', i)) return i + 5;
        if (text.startsWith('<!--->', i)) return i + 6;
        return this.skipTo('-->', i + 4, i);
      }
      if (text.startsWith('<![CDATA[', i)) return this.skipTo(']]>', i + 9, i);
      return isLetter(text.charCodeAt(i + 2)) ? this.skipTo('>', i + 2, i) : i + 1;
    }
    if (next === 0x3f /* ? */) return this.skipTo('?>', i + 2, i);
    if (next === 0x2f /* / */) {
      let j = i + 2;
      if (!isLetter(text.charCodeAt(j))) return i + 1;
      while (j < this.e && isTagNameChar(text.charCodeAt(j))) j++;
      j = this.skipWhitespace(j);
      return text.charCodeAt(j) === GT && j < this.e ? j + 1 : i + 1;
    }
    if (!isLetter(next)) return i + 1;
    const autolink = this.autolink(i);
    if (autolink > 0) return autolink;
    const end = this.openTag(i);
    return end > 0 ? end : i + 1;
  }

  private skipTo(needle: string, from: number, i: number): number {
    const at = this.findInSegment(needle, from);
    return at < 0 ? i + 1 : at + needle.length;
  }

  /** `<scheme:…>` (not a reference Quire maps, but `<` and what follows must not be read as markup). */
  private autolink(i: number): number {
    const text = this.text;
    let j = i + 1;
    while (j < this.e && j - i <= 33 && /[A-Za-z0-9+.-]/.test(text[j]!)) j++;
    this.meter.steps += j - i;
    if (text.charCodeAt(j) !== 0x3a /* : */ || j - i < 3) return -1;
    for (j++; j < this.e; j++) {
      this.meter.steps++;
      const c = text.charCodeAt(j);
      if (c === GT) return j + 1;
      if (isSpaceOrControl(c) || c === LT) return -1;
    }
    return -1;
  }

  private skipWhitespace(j: number): number {
    while (j < this.e && isWhitespace(this.text.charCodeAt(j))) {
      this.meter.steps++;
      j++;
    }
    return j;
  }

  private openTag(i: number): number {
    const text = this.text;
    let j = i + 1;
    while (j < this.e && isTagNameChar(text.charCodeAt(j))) j++;
    this.meter.steps += j - i;
    const name = text.slice(i + 1, j).toLowerCase();
    const attributes: HtmlAttribute[] = [];
    for (;;) {
      const gap = j;
      j = this.skipWhitespace(j);
      if (j >= this.e) return -1;
      const c = text.charCodeAt(j);
      if (c === GT || (c === 0x2f && text.charCodeAt(j + 1) === GT)) {
        this.atoms.push({ type: 'html', at: i, name, attributes });
        return j + (c === GT ? 1 : 2);
      }
      if (j === gap || !isAttributeNameStart(c)) return -1;
      const nameStart = j;
      while (j < this.e && isAttributeNameChar(text.charCodeAt(j))) j++;
      this.meter.steps += j - nameStart;
      const attribute: HtmlAttribute = { name: text.slice(nameStart, j).toLowerCase(), value: null };
      const k = this.skipWhitespace(j);
      if (text.charCodeAt(k) === 0x3d /* = */) {
        const value = this.attributeValue(this.skipWhitespace(k + 1));
        if (!value) return -1;
        attribute.value = value;
        j = value.end + (value.delimiter === '' ? 0 : 1);
      }
      attributes.push(attribute);
    }
  }

  private attributeValue(k: number): HrefSlot | null {
    const text = this.text;
    const quote = text[k];
    if (quote === '"' || quote === "'") {
      const close = this.findInSegment(quote, k + 1);
      if (close < 0) return null;
      return { start: k + 1, end: close, delimiter: quote, value: decodeHref(text.slice(k + 1, close), 'html', quote) };
    }
    let m = k;
    while (m < this.e && isUnquotedValueChar(text.charCodeAt(m))) m++;
    this.meter.steps += m - k;
    if (m === k) return null;
    return { start: k, end: m, delimiter: '', value: decodeHref(text.slice(k, m), 'html', '') };
  }

  private closeBracket(i: number, openers: Opener[]): number {
    const opener = openers.pop();
    if (!opener || (!opener.image && opener.serial < this.linkCutoff)) return i + 1;
    if (this.text.charCodeAt(i + 1) !== 0x28 /* ( */) return i + 1;
    this.destinations ??= new DestinationReader(this.text, this.s, this.e, this.meter);
    const link = this.destinations.read(i + 2);
    if (!link) return i + 1;
    this.atoms.push({ type: opener.image ? 'image' : 'link', at: link.href.start, href: link.href });
    // Links cannot hold links: every `[` still open becomes plain text (images can hold links).
    if (!opener.image) this.linkCutoff = this.serial;
    return link.end;
  }
}
