/**
 * Reading one `{% name arguments %}` tag, as GitBook writes them: a name (`hint`,
 * `content-ref`, `endhint`, or an integration's block `@github-files/github-code-block`), then `key="value"` pairs (`key='value'` and unquoted
 * `required=true` occur too), quoted positional values (`{% include "a.md" %}`), or a free
 * expression (`{% if visitor.claims.x %}`: see `rest`). A tag never spans lines.
 *
 * Offsets are string offsets into the whole document, so a value can be rewritten in place.
 */
import { decodeHref, type HrefDelimiter } from './href-syntax';

export interface TagArgument {
  /** null for a positional value. */
  key: string | null;
  /** The value, escapes (`\"`, `\\`) decoded. */
  value: string;
  /** Offsets of the value as written, inside its quotes. */
  start: number;
  end: number;
  delimiter: Exclude<HrefDelimiter, '<'>;
}

export interface TagSyntax {
  /** Offsets of the whole tag, `{%` to `%}` included. */
  start: number;
  end: number;
  /** As written (`endhint` for an end tag); '' when the tag has none. */
  name: string;
  args: TagArgument[];
  /** Everything after the name, trimmed: the condition of an `if`. */
  rest: string;
  /** What could not be read, or null. */
  error: string | null;
}

/** A block name, or an integration's `@<integration>/<block>`. */
const NAME = /@[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*|[A-Za-z][A-Za-z0-9_-]*/y;
const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0b || code === 0x0c;
}

/** Reads the tag `text.slice(start, end)`, which starts with `{%` and ends with `%}`. */
export function parseTag(text: string, start: number, end: number): TagSyntax {
  const innerEnd = end - 2;
  let i = start + 2;
  while (i < innerEnd && isSpace(text.charCodeAt(i))) i++;
  NAME.lastIndex = i;
  const match = NAME.exec(text);
  const name = match && NAME.lastIndex <= innerEnd ? match[0] : '';
  const tag: TagSyntax = { start, end, name, args: [], rest: '', error: null };
  if (name === '') {
    tag.error = 'it has no block name';
    return tag;
  }
  i += name.length;
  tag.rest = text.slice(i, innerEnd).trim();
  while (i < innerEnd) {
    while (i < innerEnd && isSpace(text.charCodeAt(i))) i++;
    if (i >= innerEnd) break;
    const tokenStart = i;
    while (i < innerEnd && !isSpace(text.charCodeAt(i)) && text[i] !== '=' && text[i] !== '"' && text[i] !== "'") i++;
    const token = text.slice(tokenStart, i);
    const keyed = text[i] === '=' && KEY.test(token);
    if (keyed) i++;
    const value = readValue(text, keyed ? i : tokenStart, innerEnd);
    if (!value) {
      tag.error = keyed ? `the value of ${token} has no closing quote` : 'a quoted value has no closing quote';
      break;
    }
    tag.args.push({ key: keyed ? token : null, ...value.arg });
    i = value.next;
  }
  return tag;
}

function readValue(text: string, i: number, innerEnd: number): { arg: Omit<TagArgument, 'key'>; next: number } | null {
  const quote = text[i];
  if (quote === '"' || quote === "'") {
    let j = i + 1;
    while (j < innerEnd && text[j] !== quote) j += text[j] === '\\' && j + 1 < innerEnd ? 2 : 1;
    if (j >= innerEnd) return null;
    const raw = text.slice(i + 1, j);
    return { arg: { value: decodeHref(raw, 'block', quote), start: i + 1, end: j, delimiter: quote }, next: j + 1 };
  }
  let j = i;
  while (j < innerEnd && !isSpace(text.charCodeAt(j))) j++;
  return { arg: { value: text.slice(i, j), start: i, end: j, delimiter: '' }, next: j };
}
