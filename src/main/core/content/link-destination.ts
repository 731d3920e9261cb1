/**
 * Reading an inline link's `(destination "title")`, from just after its `(`, as CommonMark
 * does: the destination bare (no spaces, balanced parentheses) or in angle brackets, then an
 * optional title in `"…"`, `'…'` or `(…)`, then `)`. One reader serves one paragraph.
 *
 * Linear over a whole paragraph however many `](` it holds: the balance of parentheses is
 * indexed once, the next space is cached, and a title search that finds no closing character
 * is remembered (every later search would start further on and fail too).
 */
import { isSpaceOrControl } from './char-classes';
import { decodeHref, type HrefSlot, isAsciiPunctuation } from './href-syntax';
import type { WorkMeter } from './work-meter';

const BACKSLASH = 0x5c;
const LT = 0x3c;
const GT = 0x3e;

export class DestinationReader {
  private balance: Int32Array | null = null;
  private closers: Map<number, number[]> | null = null;
  private spaceSearch = { from: -1, at: -1 };
  private readonly titleMissingFrom = new Map<string, number>();

  /** For the paragraph `text.slice(s, e)`. */
  constructor(
    private readonly text: string,
    private readonly s: number,
    private readonly e: number,
    private readonly meter: WorkMeter,
  ) {}

  /** `(destination "title")` from just after the `(`, or null when it is not one. */
  read(from: number): { href: HrefSlot; end: number } | null {
    const text = this.text;
    const p = this.skipBlank(from);
    let href: HrefSlot;
    let after: number;
    if (text.charCodeAt(p) === LT) {
      const close = this.angleDestinationEnd(p);
      if (close < 0) return null;
      href = { start: p + 1, end: close, delimiter: '<', value: decodeHref(text.slice(p + 1, close), 'markdown', '<') };
      after = close + 1;
    } else {
      const end = this.bareDestinationEnd(p);
      if (end < 0) return null;
      href = { start: p, end, delimiter: '', value: decodeHref(text.slice(p, end), 'markdown', '') };
      after = end;
    }
    let q = this.skipBlank(after);
    const opener = text[q];
    if (q > after && (opener === '"' || opener === "'" || opener === '(')) {
      const close = this.titleEnd(q, opener === '(' ? ')' : opener);
      if (close < 0) return null;
      q = this.skipBlank(close + 1);
    }
    return q < this.e && text.charCodeAt(q) === 0x29 /* ) */ ? { href, end: q + 1 } : null;
  }

  /** Spaces and tabs, with at most one line ending among them. */
  private skipBlank(j: number): number {
    const text = this.text;
    let newline = false;
    while (j < this.e) {
      const c = text.charCodeAt(j);
      if (c === 0x20 || c === 0x09) j++;
      else if ((c === 0x0a || c === 0x0d) && !newline) {
        newline = true;
        j += c === 0x0d && text.charCodeAt(j + 1) === 0x0a ? 2 : 1;
      } else break;
      this.meter.steps++;
    }
    return j;
  }

  private angleDestinationEnd(p: number): number {
    const text = this.text;
    for (let j = p + 1; j < this.e; j++) {
      this.meter.steps++;
      const c = text.charCodeAt(j);
      if (c === GT) return j;
      if (c === LT || c === 0x0a || c === 0x0d) return -1;
      if (c === BACKSLASH && j + 1 < this.e && isAsciiPunctuation(text.charCodeAt(j + 1))) j++;
    }
    return -1;
  }

  /**
   * A bare destination runs to the first space or control character, or to the first `)` not
   * matched by a `(` after its start, and must leave its parentheses balanced. Answered from an
   * index of the paragraph's parenthesis balance, so hostile input costs no rescans.
   */
  private bareDestinationEnd(p: number): number {
    const space = this.nextSpaceOrControl(p);
    const { balance, closers } = this.parenthesisIndex();
    const level = balance[p - this.s]!;
    const candidates = closers.get(level);
    if (candidates) {
      let lo = 0;
      let hi = candidates.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (candidates[mid]! < p) lo = mid + 1;
        else hi = mid;
        this.meter.steps++;
      }
      const close = candidates[lo];
      if (close !== undefined && close < space) return close;
    }
    return space > p && balance[space - this.s] === level ? space : -1;
  }

  private nextSpaceOrControl(p: number): number {
    const search = this.spaceSearch;
    if (p >= search.from && search.at >= p) return search.at;
    let j = p;
    while (j < this.e && !isSpaceOrControl(this.text.charCodeAt(j))) {
      this.meter.steps++;
      j++;
    }
    this.spaceSearch = { from: p, at: j };
    return j;
  }

  /** balance[k]: unescaped `(` minus `)` before offset s+k; closers: where each `)` is, by the balance before it. */
  private parenthesisIndex(): { balance: Int32Array; closers: Map<number, number[]> } {
    if (this.balance && this.closers) return { balance: this.balance, closers: this.closers };
    const text = this.text;
    const balance = new Int32Array(this.e - this.s + 1);
    const closers = new Map<number, number[]>();
    let level = 0;
    for (let i = this.s; i < this.e; i++) {
      this.meter.steps++;
      const c = text.charCodeAt(i);
      balance[i - this.s] = level;
      if (c === BACKSLASH && i + 1 < this.e && isAsciiPunctuation(text.charCodeAt(i + 1))) {
        balance[i + 1 - this.s] = level;
        i++;
      } else if (c === 0x28) level++;
      else if (c === 0x29) {
        const list = closers.get(level) ?? [];
        list.push(i);
        closers.set(level, list);
        level--;
      }
    }
    balance[this.e - this.s] = level;
    this.balance = balance;
    this.closers = closers;
    return { balance, closers };
  }

  /** The closing character of a link title opened at `q`, or -1. */
  private titleEnd(q: number, closer: string): number {
    const missingFrom = this.titleMissingFrom.get(closer);
    if (missingFrom !== undefined && q >= missingFrom) return -1;
    const text = this.text;
    for (let j = q + 1; j < this.e; j++) {
      this.meter.steps++;
      const c = text[j];
      if (c === closer) return j;
      if (closer === ')' && c === '(') return -1;
      if (c === '\\' && j + 1 < this.e && isAsciiPunctuation(text.charCodeAt(j + 1))) j++;
    }
    this.titleMissingFrom.set(closer, q);
    return -1;
  }
}
