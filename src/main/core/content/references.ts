/**
 * References in GitBook markdown: finding every href a page holds, rewriting some of them
 * byte for byte, and the two forms an href to a page or file takes.
 *
 * Where hrefs are found: inline links and images, reference definitions, the `href`, `src`,
 * `srcset` and `poster` attributes of any HTML tag (GitBook writes `<img src>`, `<a href>`
 * in cards and buttons, `<source srcset>` in `<picture>`; a `srcset` is one URL, spaces
 * included, as GitBook writes it), and the block arguments the block table marks as
 * references (`content-ref url`, `embed url`, `file src`, `include "…"`, `openapi src`, and the
 * legacy `page-ref page`, `swagger src`). Nothing inside code, comments, frontmatter or a
 * `{% code %}` body counts (see markdown-lex.ts).
 *
 * Stable form (what the server stores with `format.markdown.refs=stable`):
 * `/pages/<pageId>[#anchor]`, `/spaces/<spaceId>/pages/<pageId>[#anchor]`, `/files/<fileId>`,
 * `/spaces/<spaceId>/files/<fileId>`. Relative form (what the sync folder holds): a POSIX path
 * from the page's file, `x.md` rather than `./x.md`, as GitBook's Git Sync writes it.
 */
import { BLOCKS_BY_NAME, endTagTarget } from './blocks';
import { decodeHref, encodeHref, type HrefContext, type HrefDelimiter, percentEncode } from './href-syntax';
import { type Atom, lexMarkdown, type WorkMeter } from './markdown-lex';

export type { HrefDelimiter } from './href-syntax';
export type { WorkMeter } from './markdown-lex';

export type ReferenceKind = 'link' | 'image' | 'definition' | 'html' | 'block';

export interface Reference {
  /** Offsets of the href text as written (inside `<…>` or quotes). */
  start: number;
  end: number;
  /** The href it means: backslash escapes and character references decoded. */
  href: string;
  kind: ReferenceKind;
  /** The HTML tag (`img`) or block (`content-ref`) it is in; null for markdown syntax. */
  name: string | null;
  /** The attribute or argument holding it (`src`, `url`); null for markdown syntax and positional block values. */
  attribute: string | null;
  /** 1-based line of `start`. */
  line: number;
  /** How the href text is delimited: '' bare, '<' markdown angle brackets, or a quote. */
  delimiter: HrefDelimiter;
}

const HTML_REFERENCE_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'poster']);

export function findReferences(markdown: string, meter?: WorkMeter): Reference[] {
  const { atoms, lineAt } = lexMarkdown(markdown, meter);
  const codeBodies = codeBlockBodies(atoms);
  const refs: Reference[] = [];
  let body = 0;
  for (const atom of atoms) {
    while (body < codeBodies.length && codeBodies[body]!.end <= atom.at) body++;
    const inCodeBody = body < codeBodies.length && codeBodies[body]!.start <= atom.at;
    if (!inCodeBody) collect(atom, lineAt, refs);
  }
  return refs;
}

function collect(atom: Atom, lineAt: (offset: number) => number, refs: Reference[]): void {
  if (atom.type === 'link' || atom.type === 'image' || atom.type === 'definition') {
    const { start, end, value, delimiter } = atom.href;
    refs.push({ start, end, href: value, kind: atom.type, name: null, attribute: null, line: lineAt(start), delimiter });
  } else if (atom.type === 'html') {
    for (const attribute of atom.attributes) {
      if (!attribute.value || !HTML_REFERENCE_ATTRIBUTES.has(attribute.name)) continue;
      const { start, end, value, delimiter } = attribute.value;
      refs.push({ start, end, href: value, kind: 'html', name: atom.name, attribute: attribute.name, line: lineAt(start), delimiter });
    }
  } else if (atom.type === 'tag') {
    const spec = BLOCKS_BY_NAME.get(atom.tag.name);
    if (!spec || spec.referenceArgs.length === 0) return;
    let positional = 0;
    for (const arg of atom.tag.args) {
      const isReference = arg.key === null ? positional++ === 0 && spec.referenceArgs.includes('') : spec.referenceArgs.includes(arg.key);
      if (!isReference) continue;
      const { start, end, value, delimiter } = arg;
      refs.push({ start, end, href: value, kind: 'block', name: spec.name, attribute: arg.key, line: lineAt(start), delimiter });
    }
  }
}

/** The spans between each closed `{% code %}` and its `{% endcode %}`. */
function codeBlockBodies(atoms: readonly Atom[]): { start: number; end: number }[] {
  const bodies: { start: number; end: number }[] = [];
  const open: number[] = [];
  for (const atom of atoms) {
    if (atom.type !== 'tag') continue;
    if (atom.tag.name === 'code') open.push(atom.tag.end);
    else if (endTagTarget(atom.tag.name) === 'code' && open.length > 0) {
      const start = open.pop()!;
      if (open.length === 0) bodies.push({ start, end: atom.tag.start });
    }
  }
  return bodies.sort((a, b) => a.start - b.start);
}

function contextOf(ref: Reference): HrefContext {
  if (ref.kind === 'link' || ref.kind === 'image') return 'markdown';
  return ref.kind;
}

/** What `rewriteReferences` writes for `value` at `ref`: the href text, and its delimiter (changed only when needed). */
export function hrefText(ref: Reference, value: string): { text: string; delimiter: HrefDelimiter } {
  return encodeHref(value, contextOf(ref), ref.delimiter);
}

const CLOSING: Record<HrefDelimiter, string> = { '': '', '<': '>', '"': '"', "'": "'" };

/** Characters whose removal from an href's text can change how the rest of its line reads. */
const SHAPING = /[`"'<>]/;

export class ReferenceRewriteError extends Error {
  constructor(readonly line: number) {
    super(
      `Rewriting the reference on line ${line} would change how the page reads around it (it sits in unusual markup: an unclosed quote, tag or code fence on the same line). Nothing was rewritten: fix the markup on that line by hand and sync again.`,
    );
    this.name = 'ReferenceRewriteError';
  }
}

/**
 * Replaces the href of each reference `replace` returns a string for (null, or the same href:
 * unchanged), escaping it so the surrounding syntax stays valid and means the same; every
 * other character is kept byte for byte.
 *
 * The result is checked: it must hold the same references, with the new values. A new href
 * never holds a raw quote, backtick, `<`, `>` or `%}`, but an old one may, and on a hostile
 * line such a character can be what keeps an earlier quote or tag from closing, or a line of
 * backticks from opening a fence. Then the references whose text holds one are left as they
 * are; if the page still reads differently, ReferenceRewriteError. `refs`: the markdown's
 * references, when the caller has found them already.
 */
export function rewriteReferences(markdown: string, replace: (ref: Reference) => string | null, refs: readonly Reference[] = findReferences(markdown)): string {
  const values = refs.map((ref) => {
    const value = replace(ref);
    return value === null || value === ref.href ? null : value;
  });
  const out = applyValues(markdown, refs, values);
  if (readsAlike(out, refs, values)) return out;
  const safer = values.map((value, k) => (value !== null && SHAPING.test(markdown.slice(refs[k]!.start, refs[k]!.end)) ? null : value));
  const retry = applyValues(markdown, refs, safer);
  if (readsAlike(retry, refs, safer)) return retry;
  throw new ReferenceRewriteError(refs[values.findIndex((v) => v !== null)]?.line ?? 1);
}

function applyValues(markdown: string, refs: readonly Reference[], values: readonly (string | null)[]): string {
  let out = '';
  let last = 0;
  refs.forEach((ref, k) => {
    const value = values[k];
    if (value === null || value === undefined) return;
    const { text, delimiter } = textKeepingAnchor(markdown, ref, value);
    out += markdown.slice(last, ref.start) + (delimiter === ref.delimiter ? text : `${delimiter}${text}${CLOSING[delimiter]}`);
    last = ref.end;
  });
  return last === 0 ? markdown : out + markdown.slice(last);
}

/**
 * The `#anchor` of a reference's text as written (`#accept-both-dag\_cbor`, `#a/#b`), when the
 * text splits at its first `#` into a path and an anchor that each mean their part of the href;
 * null when it has no anchor or does not split so.
 */
export function anchorAsWritten(markdown: string, ref: Reference): string | null {
  const raw = markdown.slice(ref.start, ref.end);
  const rawHash = raw.indexOf('#');
  const hash = ref.href.indexOf('#');
  if (rawHash < 0 || hash < 0) return null;
  const context = contextOf(ref);
  const splits = decodeHref(raw.slice(0, rawHash), context, ref.delimiter) === ref.href.slice(0, hash);
  return splits && decodeHref(raw.slice(rawHash), context, ref.delimiter) === ref.href.slice(hash) ? raw.slice(rawHash) : null;
}

/** hrefText, but an anchor `value` shares with the reference keeps the spelling it has there (GitBook's `\_`), when the delimiter stays. */
function textKeepingAnchor(markdown: string, ref: Reference, value: string): { text: string; delimiter: HrefDelimiter } {
  const hash = value.indexOf('#');
  const anchor = hash < 0 ? null : anchorAsWritten(markdown, ref);
  if (anchor !== null && ref.href.slice(ref.href.indexOf('#')) === value.slice(hash)) {
    const path = hrefText(ref, value.slice(0, hash));
    if (path.delimiter === ref.delimiter) return { text: path.text + anchor, delimiter: path.delimiter };
  }
  return hrefText(ref, value);
}

function readsAlike(out: string, refs: readonly Reference[], values: readonly (string | null)[]): boolean {
  if (values.every((v) => v === null)) return true;
  const found = findReferences(out);
  return (
    found.length === refs.length &&
    found.every((ref, k) => {
      const was = refs[k]!;
      const value = values[k];
      const href = value === null || value === undefined ? was.href : value;
      return ref.kind === was.kind && ref.name === was.name && ref.attribute === was.attribute && decodePercent(ref.href) === decodePercent(href);
    })
  );
}

// ---------------------------------------------------------------------------
// Stable references

export type StableRef =
  | { kind: 'page'; spaceId: string | null; pageId: string; anchor: string | null }
  | { kind: 'file'; spaceId: string | null; fileId: string };

const STABLE = /^\/(?:spaces\/([A-Za-z0-9_-]+)\/)?(pages|files)\/([A-Za-z0-9_-]+)(?:#(.*))?$/s;
const ID = /^[A-Za-z0-9_-]+$/;

/** Reads a stable reference; the anchor is kept as written (not decoded). Null for anything else. */
export function parseStableRef(href: string): StableRef | null {
  const m = STABLE.exec(href);
  if (!m) return null;
  const spaceId = m[1] ?? null;
  if (m[2] === 'files') return m[4] === undefined ? { kind: 'file', spaceId, fileId: m[3]! } : null;
  return { kind: 'page', spaceId, pageId: m[3]!, anchor: m[4] ?? null };
}

const INCLUDE_REF = /^\/(?:spaces\/([A-Za-z0-9_-]+)\/)?reusable-content\/([A-Za-z0-9_-]+)$/;

/** A reusable content an include names in stable form (`/reusable-content/<id>`, also of another space); null for anything else. */
export function parseIncludeRef(href: string): { spaceId: string | null; id: string } | null {
  const m = INCLUDE_REF.exec(href);
  return m ? { spaceId: m[1] ?? null, id: m[2]! } : null;
}

export function formatIncludeRef(spaceId: string | null, id: string): string {
  if (!ID.test(id) || (spaceId !== null && !ID.test(spaceId))) throw new Error(`formatIncludeRef: "${id}" is not a GitBook id (letters, digits, - and _)`);
  return `${spaceId === null ? '' : `/spaces/${spaceId}`}/reusable-content/${id}`;
}

export function formatStableRef(ref: StableRef): string {
  const id = ref.kind === 'page' ? ref.pageId : ref.fileId;
  for (const [what, value] of [
    ['space id', ref.spaceId],
    [`${ref.kind} id`, id],
  ] as const) {
    if (value !== null && !ID.test(value)) throw new Error(`formatStableRef: the ${what} "${value}" is not a GitBook id (letters, digits, - and _)`);
  }
  const space = ref.spaceId === null ? '' : `/spaces/${ref.spaceId}`;
  if (ref.kind === 'file') return `${space}/files/${ref.fileId}`;
  return `${space}/pages/${ref.pageId}${ref.anchor === null ? '' : `#${ref.anchor}`}`;
}

// ---------------------------------------------------------------------------
// Relative paths

// Never `=`, quotes or spaces: every place an href goes (even an unquoted attribute) holds the result as is.
const SEGMENT_KEEP = /^[A-Za-z0-9\-._~!$&()*+,;@]$/;
const FRAGMENT_KEEP = /^[A-Za-z0-9\-._~!$&()*+,;@/?:]$/;
const READABLE = /^[\p{L}\p{M}\p{N}]$/u;

function encodeWith(text: string, keep: RegExp): string {
  let out = '';
  for (const ch of text) out += keep.test(ch) || (ch.codePointAt(0)! > 0x7f && READABLE.test(ch)) ? ch : percentEncode(ch);
  return out;
}

/** Percent-encodes what a URL fragment cannot hold as is (or would read as markup); keeps readable letters. */
export function encodeAnchor(anchor: string): string {
  return encodeWith(anchor.normalize('NFC'), FRAGMENT_KEEP);
}

function splitRootPath(path: string, what: string): string[] {
  const segments = path.normalize('NFC').split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) {
    throw new Error(`relativeHref: ${what} must be a POSIX path relative to the sync root, without empty, "." or ".." parts; got "${path}"`);
  }
  return segments;
}

/**
 * The href from the file `fromFile` to the file `toFile` (both relative to the sync root), with
 * an optional anchor (decoded; encoded here). Always `name.md` rather than `./name.md`, like
 * GitBook's Git Sync. Percent-encodes what a link cannot hold or could misread (spaces, `#`,
 * `%`, `?`, `:`, `=`, quotes, brackets, controls, symbols) and keeps letters, digits and marks
 * of any script readable, so the result fits any place an href goes without quoting or
 * angle brackets. The result is NFC.
 */
export function relativeHref(fromFile: string, toFile: string, anchor?: string | null): string {
  const fromDir = splitRootPath(fromFile, 'fromFile').slice(0, -1);
  const to = splitRootPath(toFile, 'toFile');
  let common = 0;
  while (common < fromDir.length && common < to.length - 1 && fromDir[common] === to[common]) common++;
  const parts = [...fromDir.slice(common).map(() => '..'), ...to.slice(common).map((s) => encodeWith(s, SEGMENT_KEEP))];
  return parts.join('/') + (anchor === undefined || anchor === null ? '' : `#${encodeAnchor(anchor)}`);
}

/**
 * A page or asset created by the next push, named by its path until the server gives it an id:
 * `/pages/new:<path>` or `/files/new:<path>` (path segments percent-encoded, so the href holds
 * anywhere a link does), with the anchor as written in an href. The push resolves it (parseNewRef).
 */
export function formatNewRef(kind: 'page' | 'file', path: string, anchor: string | null = null): string {
  const encoded = path
    .split('/')
    .map((s) => encodeWith(s, SEGMENT_KEEP))
    .join('/');
  return `/${kind === 'page' ? 'pages' : 'files'}/new:${encoded}${anchor === null ? '' : `#${anchor}`}`;
}

/** The path (decoded) a `/pages/new:…` or `/files/new:…` href names, with its `#anchor` as written; null otherwise. */
export function parseNewRef(href: string): { kind: 'page' | 'file'; path: string; anchor: string | null } | null {
  const m = /^\/(pages|files)\/new:([^#]+)(#.*)?$/.exec(href);
  if (!m) return null;
  return { kind: m[1] === 'pages' ? 'page' : 'file', path: decodePercent(m[2]!), anchor: m[3] ?? null };
}

/** Decodes %XX sequences that form UTF-8; leaves any other `%` as written. */
export function decodePercent(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Where a relative href written in `fromFile` points, as a path relative to the sync root
 * (decoded, NFC) and its anchor (decoded, or null). Accepts `./`, `../` and backslashes. A
 * link to a folder (`guide/`, `./`) means its README.md, as in GitBook's Git Sync. Null for
 * what is not a relative path to a file: a URL with a scheme (`https:`, `mailto:`), `//host`,
 * an absolute `/path` (stable references included), an anchor alone, a query, or a path that
 * climbs above the root.
 */
export function resolveRelativeHref(fromFile: string, href: string): { path: string; anchor: string | null } | null {
  const h = href.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '').replace(/\\/g, '/');
  if (h === '' || h.startsWith('#') || h.startsWith('/') || SCHEME.test(h)) return null;
  const hash = h.indexOf('#');
  const pathPart = hash < 0 ? h : h.slice(0, hash);
  if (pathPart === '' || pathPart.includes('?')) return null;
  const segments = fromFile.normalize('NFC').replace(/\\/g, '/').split('/').slice(0, -1);
  const raw = pathPart.split('/');
  for (const piece of raw) {
    const segment = decodePercent(piece).normalize('NFC');
    if (segment.includes('/') || segment.includes('\\') || /\p{Cc}/u.test(segment)) return null;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(segment);
  }
  const last = raw[raw.length - 1]!;
  if (last === '' || last === '.' || last === '..') segments.push('README.md');
  const anchor = hash < 0 ? null : decodePercent(h.slice(hash + 1)).normalize('NFC');
  return { path: segments.join('/'), anchor };
}
