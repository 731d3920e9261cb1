/**
 * Expressions and conditions as GitBook shows them, from the space's and the page's variables:
 * `<code class="expression">space.vars.version</code>` becomes the value (`2.4.1`), and an `{% if %}`
 * block says what its condition's variables hold and whether a reader sees it. What the preview
 * cannot know (`visitor.claims.*`) is shown as written; a variable that does not exist, or an
 * expression that does not read, is marked broken with the reason — `quire check` reports the
 * same (check/variables.ts).
 */
import type { StateCore, Token } from 'markdown-it';
import { evaluateExpression, type Scope, Unknown, expressionText, variablesNamed } from '../content';
import { escapeHtml } from './sanitize';

const OPEN = /^<code\s+class\s*=\s*"([^"]*)"\s*>$/i;

/** What does not exist among the variables an expression names, as `space.vars.x`. */
function missing(source: string, scope: Scope): string[] {
  return variablesNamed(source)
    .filter((r) => !Object.hasOwn(r.scope === 'space' ? scope.space : scope.page, r.name))
    .map((r) => `${r.scope}.vars.${r.name}`);
}

/** The value of an expression, as safe HTML. */
export function expressionHtml(source: string, scope: Scope): string {
  const code = (cls: string, why: string) => `<code class="gb-expression ${cls}" title="${escapeHtml(why)}">${escapeHtml(source)}</code>`;
  const unknown = missing(source, scope);
  if (unknown.length > 0) return code('gb-broken', `${unknown.join(', ')} does not exist: GitBook shows nothing here`);
  let value: unknown;
  try {
    value = evaluateExpression(source, scope);
  } catch (err) {
    return code('gb-broken', `Quire cannot read this expression: ${(err as Error).message}`);
  }
  if (value === Unknown) return code('gb-expression-unknown', 'Known when a reader views the page on GitBook');
  return `<span class="gb-expression" title="${escapeHtml(source)}">${escapeHtml(expressionText(value))}</span>`;
}

/** An `{% if %}` block's label, and whether a reader would not see it (null: the preview cannot tell). */
export function conditionHtml(source: string, scope: Scope): { label: string; hidden: boolean | null } {
  const named = variablesNamed(source);
  const values = named.map((r) => {
    const vars = r.scope === 'space' ? scope.space : scope.page;
    const name = `${r.scope}.vars.${r.name}`;
    return Object.hasOwn(vars, r.name)
      ? `<code>${escapeHtml(name)}</code> is <code>${escapeHtml(JSON.stringify(vars[r.name]))}</code>`
      : `<span class="gb-broken"><code>${escapeHtml(name)}</code> does not exist</span>`;
  });
  let value: unknown = Unknown;
  try {
    value = evaluateExpression(source, scope);
  } catch {
    // shown as written
  }
  const hidden = value === Unknown ? null : !value;
  const outcome = hidden === null ? '' : hidden ? ': hidden from readers' : ': shown to readers';
  const label = `Shown when <code>${escapeHtml(source)}</code>${values.length > 0 ? ` (${[...new Set(values)].join(', ')})` : ''}${outcome}`;
  return { label, hidden };
}

/** GitBook's inline expression, `<code class="expression">…</code>`, as its value (env.expression). */
export function inlineExpressions(state: StateCore): void {
  const render = (state.env as { expression?: (source: string) => string }).expression;
  if (!render) return;
  for (const token of state.tokens) {
    const children = token.children;
    if (token.type !== 'inline' || !children) continue;
    for (let i = 0; i < children.length; i++) {
      const open = OPEN.exec(children[i]!.type === 'html_inline' ? children[i]!.content : '');
      if (!open || !open[1]!.split(/\s+/).includes('expression')) continue;
      let end = i + 1;
      while (end < children.length && (children[end]!.type === 'text' || children[end]!.type === 'text_special')) end++;
      const close = children[end];
      if (close?.type !== 'html_inline' || !/^<\/code\s*>$/i.test(close.content)) continue;
      const source = children
        .slice(i + 1, end)
        .map((t: Token) => t.content)
        .join('')
        .trim();
      const html = new state.Token('html_inline', '', 0);
      html.content = render(source);
      html.meta = { trusted: true };
      children.splice(i, end - i + 1, html);
    }
  }
}
