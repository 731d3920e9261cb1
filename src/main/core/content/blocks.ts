/**
 * GitBook's `{% name args %}` … `{% endname %}` blocks: the table of the blocks GitBook
 * writes, and a scanner that rebuilds their nesting from a page and reports what would break
 * it (for `quire check`, the push guard and the preview renderer).
 *
 * The table follows GitBook's own docs (GitbookIO/public-docs, "Representation in Markdown"
 * on each block's page) and what Git Sync exports in public repositories:
 * - `embed` and `file` may hold a caption and then end with `{% endembed %}` / `{% endfile %}`,
 *   or stand alone. Such a block (and one of an unknown name without an end tag anywhere in the
 *   page) closes by itself at the next tag that is not its end tag.
 * - `include` and `page-ref` never have an end tag.
 * - Blocks marked legacy come from GitBook's previous editor (`page-ref`, `code-tabs`,
 *   `swagger`, `api-method`); Git Sync still reads them, so they are not reported as unknown.
 * - An integration's block, `{% @github-files/github-code-block url="…" %}` (`@<integration>/<block>`),
 *   stands alone and is GitBook's to render: it is neither unknown nor ever closed.
 *
 * Tags inside code (fenced, indented, code spans) and comments do not count (markdown-lex.ts);
 * a tag on a line of an HTML block is text on the page (as the preview shows it), so it is
 * reported and pairs with nothing.
 */
import { lexMarkdown, type WorkMeter } from './markdown-lex';
import type { TagSyntax } from './tag-syntax';

export interface BlockSpec {
  name: string;
  /** 'required': ends with `{% endname %}`; 'optional': may hold a caption and end with it; 'none': never has one. */
  end: 'required' | 'optional' | 'none';
  /** Arguments it cannot do without ('' stands for its positional value, e.g. include's path). */
  requiredArgs: readonly string[];
  /** The blocks it may sit directly inside; null: anywhere. */
  parents: readonly string[] | null;
  /** Arguments that hold a content reference (a page, file or URL), '' for the positional value. */
  referenceArgs: readonly string[];
  /** Takes a condition instead of arguments (`{% if visitor.claims.beta %}`). */
  condition?: true;
  /** From GitBook's previous editor; still read by Git Sync. */
  legacy?: true;
}

function spec(name: string, end: BlockSpec['end'], more: Partial<Omit<BlockSpec, 'name' | 'end'>> = {}): BlockSpec {
  return { name, end, requiredArgs: [], parents: null, referenceArgs: [], ...more };
}

const API_PARAMETER_GROUPS = [
  'api-method-path-parameters',
  'api-method-query-parameters',
  'api-method-headers',
  'api-method-body-parameters',
  'api-method-form-data-parameters',
];

export const KNOWN_BLOCKS: readonly BlockSpec[] = [
  spec('hint', 'required'),
  spec('tabs', 'required'),
  spec('tab', 'required', { parents: ['tabs'] }),
  spec('stepper', 'required'),
  spec('step', 'required', { parents: ['stepper'] }),
  spec('columns', 'required'),
  spec('column', 'required', { parents: ['columns'] }),
  spec('updates', 'required'),
  spec('update', 'required', { parents: ['updates'] }),
  spec('code', 'required'),
  spec('prompt', 'required'),
  spec('if', 'required', { condition: true }),
  spec('content-ref', 'required', { requiredArgs: ['url'], referenceArgs: ['url'] }),
  spec('embed', 'optional', { requiredArgs: ['url'], referenceArgs: ['url'] }),
  spec('file', 'optional', { requiredArgs: ['src'], referenceArgs: ['src'] }),
  spec('include', 'none', { requiredArgs: [''], referenceArgs: [''] }),
  spec('openapi', 'required', { requiredArgs: ['src', 'path', 'method'], referenceArgs: ['src'] }),
  spec('openapi-operation', 'required', { requiredArgs: ['spec', 'path', 'method'] }),
  spec('openapi-schemas', 'required', { requiredArgs: ['spec', 'schemas'] }),
  spec('openapi-webhook', 'required', { requiredArgs: ['spec', 'name', 'method'] }),
  spec('page-ref', 'none', { requiredArgs: ['page'], referenceArgs: ['page'], legacy: true }),
  spec('code-tabs', 'required', { legacy: true }),
  spec('code-tabs-item', 'required', { parents: ['code-tabs'], legacy: true }),
  spec('swagger', 'required', { requiredArgs: ['method', 'path'], referenceArgs: ['src'], legacy: true }),
  spec('swagger-description', 'required', { parents: ['swagger'], legacy: true }),
  spec('swagger-parameter', 'required', { parents: ['swagger'], legacy: true }),
  spec('swagger-response', 'required', { parents: ['swagger'], legacy: true }),
  spec('api-method', 'required', { requiredArgs: ['method', 'path'], legacy: true }),
  spec('api-method-summary', 'required', { parents: ['api-method'], legacy: true }),
  spec('api-method-description', 'required', { parents: ['api-method'], legacy: true }),
  spec('api-method-spec', 'required', { parents: ['api-method'], legacy: true }),
  spec('api-method-request', 'required', { parents: ['api-method-spec'], legacy: true }),
  spec('api-method-response', 'required', { parents: ['api-method-spec'], legacy: true }),
  ...API_PARAMETER_GROUPS.map((name) => spec(name, 'required', { parents: ['api-method-request'], legacy: true })),
  spec('api-method-parameter', 'required', { parents: API_PARAMETER_GROUPS, legacy: true }),
  spec('api-method-response-example', 'required', { parents: ['api-method-response'], legacy: true }),
  spec('api-method-response-example-description', 'required', { parents: ['api-method-response-example'], legacy: true }),
];

export const BLOCKS_BY_NAME: ReadonlyMap<string, BlockSpec> = new Map(KNOWN_BLOCKS.map((b) => [b.name, b]));

export interface Block {
  name: string;
  /** `key="value"` arguments (the last one wins if a key repeats). */
  args: Record<string, string>;
  /** Positional values (include's path). */
  values: string[];
  /** The condition of an `if` block, else null. */
  condition: string | null;
  /** Lines (1-based) of its opening tag and of its end tag; endLine = startLine when it has none. */
  startLine: number;
  endLine: number;
  /** Offsets of the opening tag and of the end tag (null when it has none or it is missing). */
  open: { start: number; end: number };
  close: { start: number; end: number } | null;
  /** Index in `blocks` of the block it sits directly inside, or null. */
  parent: number | null;
  known: boolean;
}

export type BlockProblemKind =
  | 'unclosed'
  | 'unexpected-end'
  | 'mismatched-end'
  | 'unknown-block'
  | 'missing-argument'
  | 'misplaced'
  | 'unterminated-tag'
  | 'malformed-tag'
  | 'in-html';

export interface BlockProblem {
  kind: BlockProblemKind;
  line: number;
  /** What is wrong and how to fix it. */
  message: string;
}

export interface BlockScan {
  /** In the order their opening tags appear. */
  blocks: Block[];
  /** In the order they were found (mostly by line). */
  problems: BlockProblem[];
}

/** Whether `name` is an integration's block (`@github-files/github-code-block`). */
export function isIntegrationBlock(name: string): boolean {
  return name.startsWith('@');
}

/** The end tag `{% endname %}` closes `name`; null when `tagName` is not an end tag. */
export function endTagTarget(tagName: string): string | null {
  return tagName.length > 3 && tagName.startsWith('end') && !BLOCKS_BY_NAME.has(tagName) ? tagName.slice(3) : null;
}

export function scanBlocks(markdown: string, meter?: WorkMeter): BlockScan {
  const lexed = lexMarkdown(markdown, meter);
  const scan = new BlockScanner(lexed.lineAt);
  for (const atom of lexed.atoms) {
    const target = atom.type === 'tag' && !atom.inHtml ? endTagTarget(atom.tag.name) : null;
    if (target) scan.endNamesInPage.add(target);
  }
  for (const atom of lexed.atoms) {
    if (atom.type === 'unterminated-tag') scan.unterminated(atom.at);
    else if (atom.type === 'tag' && atom.inHtml) scan.inHtml(atom.tag);
    else if (atom.type === 'tag') scan.tag(atom.tag);
  }
  return scan.finish();
}

class BlockScanner {
  readonly blocks: Block[] = [];
  readonly problems: BlockProblem[] = [];
  readonly endNamesInPage = new Set<string>();
  /** The open blocks, innermost last. */
  private readonly stack: { index: number; block: Block }[] = [];

  constructor(private readonly lineAt: (offset: number) => number) {}

  unterminated(at: number): void {
    this.problem(
      'unterminated-tag',
      this.lineAt(at),
      'a `{%` has no `%}` on the same line: finish the tag on that line (tags cannot span lines), or write `{\\%` if it is text',
    );
  }

  /** A tag on a line of an HTML block: the page shows it as text, and it pairs with nothing. */
  inHtml(tag: TagSyntax): void {
    const line = this.lineAt(tag.start);
    this.problem('in-html', line, `{% ${tag.name} %} sits on a line of HTML, where GitBook shows it as text: put the tag on a line of its own`);
  }

  tag(tag: TagSyntax): void {
    const line = this.lineAt(tag.start);
    if (tag.name === '') {
      this.problem('malformed-tag', line, '`{% %}` holds no block name: remove it, or write the block name after `{%`');
      return;
    }
    const target = endTagTarget(tag.name);
    if (target) this.close(target, tag, line);
    else this.open(tag, line);
  }

  finish(): BlockScan {
    for (let open = this.stack.pop(); open; open = this.stack.pop()) {
      const { block } = open;
      if (this.closesByItself(block)) continue;
      this.problem('unclosed', block.startLine, `{% ${block.name} %} is never closed: add {% end${block.name} %} where the ${block.name} ends`);
    }
    return { blocks: this.blocks, problems: this.problems };
  }

  private problem(kind: BlockProblemKind, line: number, message: string): void {
    this.problems.push({ kind, line, message: `line ${line}: ${message}` });
  }

  /** Embeds, files, and unknown blocks with no end tag in the page end by themselves. */
  private closesByItself(block: Block): boolean {
    const known = BLOCKS_BY_NAME.get(block.name);
    return known ? known.end === 'optional' : !this.endNamesInPage.has(block.name);
  }

  private closeSelfClosingOnTop(except: string | null): void {
    for (let top = this.stack.at(-1); top; top = this.stack.at(-1)) {
      if (top.block.name === except || !this.closesByItself(top.block)) return;
      this.stack.pop();
    }
  }

  private open(tag: TagSyntax, line: number): void {
    this.closeSelfClosingOnTop(null);
    const known = BLOCKS_BY_NAME.get(tag.name);
    const parent = this.stack.at(-1)?.index ?? null;
    const block: Block = {
      name: tag.name,
      args: Object.fromEntries(tag.args.flatMap((a) => (a.key === null ? [] : [[a.key, a.value]]))),
      values: tag.args.filter((a) => a.key === null).map((a) => a.value),
      condition: known?.condition ? tag.rest : null,
      startLine: line,
      endLine: line,
      open: { start: tag.start, end: tag.end },
      close: null,
      parent,
      known: known !== undefined,
    };
    const index = this.blocks.push(block) - 1;
    if (isIntegrationBlock(tag.name)) {
      if (tag.error) this.problem('malformed-tag', line, `{% ${tag.name} %} cannot be read: ${tag.error}; fix the quoting`);
      return;
    }
    this.check(block, known, tag, parent === null ? null : (this.blocks[parent] ?? null));
    if (known?.end !== 'none') this.stack.push({ index, block });
  }

  private check(block: Block, known: BlockSpec | undefined, tag: TagSyntax, parent: Block | null): void {
    const line = block.startLine;
    if (tag.error && !known?.condition) this.problem('malformed-tag', line, `{% ${tag.name} %} cannot be read: ${tag.error}; fix the quoting`);
    if (!known) {
      const names = KNOWN_BLOCKS.filter((b) => !b.legacy).map((b) => b.name);
      this.problem(
        'unknown-block',
        line,
        `{% ${tag.name} %} is not a block GitBook documents (known: ${names.join(', ')}); Quire keeps it as written: fix the name if it is a typo, or escape it as {\\% if it is text`,
      );
      return;
    }
    if (known.condition && tag.rest === '')
      this.problem('missing-argument', line, `{% ${tag.name} %} needs a condition, e.g. {% if visitor.claims.unsigned.beta %}`);
    for (const arg of known.requiredArgs) {
      const present = arg === '' ? block.values.length > 0 : Object.hasOwn(block.args, arg);
      if (present) continue;
      const what = arg === '' ? 'a quoted path, e.g. {% include "../.gitbook/includes/note.md" %}' : `${arg}="…"`;
      this.problem('missing-argument', line, `{% ${tag.name} %} needs ${what}: add it to the tag`);
    }
    const parentName = parent?.name ?? null;
    if (known.parents && (parentName === null || !known.parents.includes(parentName))) {
      const where = parentName === null ? 'outside any block' : `inside {% ${parentName} %}`;
      const allowed = known.parents.map((p) => `{% ${p} %}`).join(' or ');
      this.problem('misplaced', line, `{% ${tag.name} %} is ${where}, but it only works directly inside ${allowed}: move it there`);
    }
  }

  private close(target: string, tag: TagSyntax, line: number): void {
    this.closeSelfClosingOnTop(target);
    const at = this.stack.findLastIndex((open) => open.block.name === target);
    if (at < 0) {
      const known = BLOCKS_BY_NAME.get(target);
      if (known?.end === 'none') this.problem('unexpected-end', line, `{% ${tag.name} %}: {% ${target} %} has no end tag; remove {% ${tag.name} %}`);
      else
        this.problem(
          'unexpected-end',
          line,
          `{% ${tag.name} %} closes nothing: no {% ${target} %} is open here; remove it, or add the missing {% ${target} %} above`,
        );
      return;
    }
    for (const { block: inner } of this.stack.slice(at + 1).reverse()) {
      if (this.closesByItself(inner)) continue;
      this.problem(
        'mismatched-end',
        line,
        `{% ${tag.name} %} closes {% ${target} %} while {% ${inner.name} %} from line ${inner.startLine} is still open: add {% end${inner.name} %} before it`,
      );
    }
    const { block } = this.stack[at]!;
    block.endLine = line;
    block.close = { start: tag.start, end: tag.end };
    this.stack.length = at;
  }
}
