/**
 * Variables as GitBook's Git Sync writes them: a space's in `.gitbook/vars.yaml` (one
 * `name: value` line each), a page's in its frontmatter under `vars:`. The API names both
 * `variables` (the revision's, the page's); a value is text (at most 256 characters), a number
 * or true/false.
 */
import type { Variables, VariableValue } from './expressions';
import { gitbookYaml, parseYamlMapping } from './frontmatter-yaml';
import { lexMarkdown } from './markdown-lex';

/** Where a space's variables live, relative to its folder. */
export const SPACE_VARIABLES_FILE = '.gitbook/vars.yaml';

/** The frontmatter key of a page's variables (the API's `variables`). */
export const PAGE_VARIABLES_KEY = 'vars';

const isValue = (v: unknown): v is VariableValue => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** The variables of a value as the server or a file holds it: its `name: value` pairs whose value is one (others left out). */
export function variablesOf(value: unknown): Record<string, VariableValue> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => isValue(v))) as Record<string, VariableValue>;
}

/** `.gitbook/vars.yaml` for these variables ('' for none). */
export function variablesYaml(vars: Variables): string {
  return gitbookYaml({ ...vars });
}

/** The variables `.gitbook/vars.yaml` holds; null when it is not a YAML mapping. */
export function readVariablesFile(text: string): Record<string, VariableValue> | null {
  const data = parseYamlMapping(text.replace(/^\uFEFF/, ''));
  return data === null ? null : variablesOf(data);
}

/** Whether two sets of variables say the same (order aside). */
export function sameVariables(a: Variables, b: Variables): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** An expression as a page writes it: `<code class="expression">…</code>`, or the condition of `{% if … %}`. */
export interface WrittenExpression {
  kind: 'expression' | 'condition';
  /** The expression, character references decoded. */
  source: string;
  /** 1-based line where it starts. */
  line: number;
}

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos|nbsp));/g;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (all, dec?: string, hex?: string, name?: string) => {
    if (name) return NAMED[name]!;
    const code = dec !== undefined ? Number(dec) : Number.parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

/** Longest expression read (GitBook's `Expression` holds at most 1024 characters). */
const MAX_EXPRESSION = 1024;

/** The expressions and conditions a page writes, outside code and comments, in order. */
export function writtenExpressions(text: string): WrittenExpression[] {
  const lexed = lexMarkdown(text);
  const out: WrittenExpression[] = [];
  for (const atom of lexed.atoms) {
    if (atom.type === 'tag' && atom.tag.name === 'if' && atom.tag.rest !== '') {
      out.push({ kind: 'condition', source: atom.tag.rest, line: lexed.lineAt(atom.at) });
    } else if (atom.type === 'html' && atom.name === 'code') {
      const classes = atom.attributes.find((a) => a.name === 'class')?.value?.value.split(/\s+/) ?? [];
      if (!classes.includes('expression')) continue;
      const open = text.indexOf('>', atom.at);
      const close = open < 0 ? -1 : text.indexOf('</code>', open);
      if (close < 0 || close - open > MAX_EXPRESSION) continue;
      out.push({ kind: 'expression', source: decodeEntities(text.slice(open + 1, close)).trim(), line: lexed.lineAt(atom.at) });
    }
  }
  return out;
}
