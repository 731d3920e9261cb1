/**
 * Expressions and conditions that name a variable that does not exist: `space.vars.x` where the
 * space's `.gitbook/vars.yaml` has no `x`, `page.vars.x` where the page's frontmatter `vars:`
 * has none (GitBook shows nothing there). Reusable content is checked for space variables only:
 * its page variables are those of each page including it.
 */
import { parsePageFile, readVariablesFile, type VariableValue, variablesNamed, variablesOf, writtenExpressions } from '../content';
import type { CheckedSpace, IndexedFile } from './folder-index';
import type { Problem } from './problem';

const spaceVarsMemo = new WeakMap<object, Record<string, VariableValue> | null>();

/** The space's variables (none without `.gitbook/vars.yaml`, as GitBook writes none then); null when it cannot be read (then none are checked). */
export function spaceVariables(space: CheckedSpace): Record<string, VariableValue> | null {
  const file = space.files.find((f) => f.kind === 'variables');
  if (!file) return {};
  if (file.text === null) return null;
  if (!spaceVarsMemo.has(file)) spaceVarsMemo.set(file, readVariablesFile(file.text));
  return spaceVarsMemo.get(file) ?? null;
}

/** The page's own variables (its frontmatter's `vars:`); null when its frontmatter does not parse. */
export function pageVariables(text: string): Record<string, VariableValue> | null {
  try {
    return variablesOf(parsePageFile(text).meta.vars);
  } catch {
    return null;
  }
}

const listed = (names: string[]): string => names.slice(0, 8).join(', ') + (names.length > 8 ? ', …' : '');

export function checkVariables(f: IndexedFile): Problem[] {
  const text = f.file.text;
  if (text === null || (!text.includes('expression') && !text.includes('{% if'))) return [];
  const written = writtenExpressions(text);
  if (written.length === 0) return [];
  const space = spaceVariables(f.space);
  const page = f.file.kind === 'page' ? pageVariables(text) : null;
  const problems: Problem[] = [];
  for (const e of written) {
    for (const ref of variablesNamed(e.source)) {
      const known = ref.scope === 'space' ? space : page;
      if (known === null || Object.hasOwn(known, ref.name)) continue;
      const where = ref.scope === 'space' ? 'is not in .gitbook/vars.yaml' : "is not among this page's vars (its frontmatter)";
      const names = Object.keys(known);
      const create = `create \`${ref.name}\` in GitBook's editor (variables cannot be pushed)`;
      problems.push({
        file: f.rootPath,
        line: e.line,
        severity: 'error',
        code: 'unknown-variable',
        message: `The ${e.kind} \`${e.source}\` names \`${ref.scope}.vars.${ref.name}\`, which ${where}, so GitBook shows nothing there.`,
        fix:
          names.length > 0
            ? `Use one of ${ref.scope === 'space' ? "the space's" : "this page's"} variables (${listed(names)}), or ${create}.`
            : `${ref.scope === 'space' ? 'The space' : 'This page'} has no variables: ${create}, or remove the ${e.kind}.`,
      });
    }
  }
  return problems;
}
