/**
 * GitBook's expressions and conditions (`<code class="expression">space.vars.version</code>`,
 * `{% if page.vars.beta %}`): a small JavaScript-like language over the space's and the page's
 * variables. Read here without ever running code: parsed into a tree, then evaluated over plain
 * values (literals, `space.vars.*`, `page.vars.*`, the operators `+ - * / % ! && || ?? ?: ===
 * !== == != < > <= >=`, and a few string methods). What it cannot know offline (`visitor.*`,
 * a call it does not have) evaluates to `Unknown`.
 */

export type VariableValue = string | number | boolean;
export type Variables = Readonly<Record<string, VariableValue>>;

/** A variable an expression names: `space.vars.x` or `page.vars.x`. */
export interface VariableRef {
  scope: 'space' | 'page';
  name: string;
}

type Node =
  | { k: 'lit'; v: unknown }
  | { k: 'id'; name: string }
  | { k: 'member'; object: Node; prop: Node; computed: boolean }
  | { k: 'call'; callee: Node; args: Node[] }
  | { k: 'unary'; op: string; arg: Node }
  | { k: 'binary'; op: string; left: Node; right: Node }
  | { k: 'cond'; test: Node; then: Node; else: Node }
  | { k: 'array'; items: Node[] };

export class ExpressionError extends Error {
  override name = 'ExpressionError';
}

/** What an expression evaluates to when it depends on what the preview cannot know. */
export const Unknown: unique symbol = Symbol('unknown');

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\$]|\\.)*`)|([A-Za-z_$][\w$]*)|(===|!==|==|!=|<=|>=|&&|\|\||\?\?|[-+*/%!<>?:.,()[\]]))/y;

function tokenize(source: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(source);
    if (!m) throw new ExpressionError(`cannot read “${source.slice(at).trim().slice(0, 20)}”`);
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
    at = TOKEN.lastIndex;
  }
  return out;
}

const BINARY: readonly (readonly string[])[] = [['??'], ['||'], ['&&'], ['===', '!==', '==', '!='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%']];

class Parser {
  private i = 0;
  constructor(private readonly t: string[]) {}

  parse(): Node {
    if (this.t.length === 0) throw new ExpressionError('it is empty');
    const node = this.conditional();
    if (this.i < this.t.length) throw new ExpressionError(`unexpected “${this.t[this.i]}”`);
    return node;
  }

  private peek(): string | undefined {
    return this.t[this.i];
  }

  private take(expected?: string): string {
    const token = this.t[this.i];
    if (token === undefined) throw new ExpressionError('it ends too early');
    if (expected !== undefined && token !== expected) throw new ExpressionError(`expected “${expected}”, found “${token}”`);
    this.i++;
    return token;
  }

  private conditional(): Node {
    const test = this.binary(0);
    if (this.peek() !== '?') return test;
    this.take('?');
    const then = this.conditional();
    this.take(':');
    return { k: 'cond', test, then, else: this.conditional() };
  }

  private binary(level: number): Node {
    if (level === BINARY.length) return this.unary();
    let left = this.binary(level + 1);
    while (BINARY[level]!.includes(this.peek() ?? '')) {
      const op = this.take();
      left = { k: 'binary', op, left, right: this.binary(level + 1) };
    }
    return left;
  }

  private unary(): Node {
    const op = this.peek();
    if (op === '!' || op === '-' || op === '+') {
      this.take();
      return { k: 'unary', op, arg: this.unary() };
    }
    return this.postfix(this.primary());
  }

  private postfix(node: Node): Node {
    for (;;) {
      const next = this.peek();
      if (next === '.') {
        this.take();
        const name = this.take();
        if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new ExpressionError(`“${name}” is not a name`);
        node = { k: 'member', object: node, prop: { k: 'lit', v: name }, computed: false };
      } else if (next === '[') {
        this.take();
        const prop = this.conditional();
        this.take(']');
        node = { k: 'member', object: node, prop, computed: true };
      } else if (next === '(') {
        this.take();
        const args: Node[] = [];
        while (this.peek() !== ')') {
          args.push(this.conditional());
          if (this.peek() !== ')') this.take(',');
        }
        this.take(')');
        node = { k: 'call', callee: node, args };
      } else return node;
    }
  }

  private primary(): Node {
    const token = this.take();
    if (/^\d/.test(token)) return { k: 'lit', v: Number(token) };
    if (/^["'`]/.test(token)) return { k: 'lit', v: unquote(token) };
    if (token === '(') {
      const inner = this.conditional();
      this.take(')');
      return inner;
    }
    if (token === '[') {
      const items: Node[] = [];
      while (this.peek() !== ']') {
        items.push(this.conditional());
        if (this.peek() !== ']') this.take(',');
      }
      this.take(']');
      return { k: 'array', items };
    }
    if (token === 'true' || token === 'false') return { k: 'lit', v: token === 'true' };
    if (token === 'null') return { k: 'lit', v: null };
    if (token === 'undefined') return { k: 'lit', v: undefined };
    if (/^[A-Za-z_$]/.test(token)) return { k: 'id', name: token };
    throw new ExpressionError(`unexpected “${token}”`);
  }
}

function unquote(token: string): string {
  return token
    .slice(1, -1)
    .replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) =>
      c.length > 1 ? String.fromCharCode(Number.parseInt(c.slice(1), 16)) : c === 'n' ? '\n' : c === 't' ? '\t' : c,
    );
}

const cache = new Map<string, Node | ExpressionError>();

function parsed(source: string): Node {
  let node = cache.get(source);
  if (node === undefined) {
    try {
      node = new Parser(tokenize(source)).parse();
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      node = err;
    }
    if (cache.size > 500) cache.clear();
    cache.set(source, node);
  }
  if (node instanceof ExpressionError) throw node;
  return node;
}

/** Why an expression does not parse, or null when it does. */
export function expressionError(source: string): string | null {
  try {
    parsed(source);
    return null;
  } catch (err) {
    return (err as ExpressionError).message;
  }
}

/** The `space.vars.x` and `page.vars.x` an expression names (also as `space.vars["x"]`); [] when it does not parse. */
export function variablesNamed(source: string): VariableRef[] {
  let root: Node;
  try {
    root = parsed(source);
  } catch {
    return [];
  }
  const out: VariableRef[] = [];
  const visit = (n: Node): void => {
    if (n.k === 'member') {
      const ref = variableRef(n);
      if (ref) out.push(ref);
      else visit(n.object);
      if (n.computed) visit(n.prop);
      return;
    }
    if (n.k === 'call') [n.callee, ...n.args].forEach(visit);
    else if (n.k === 'unary') visit(n.arg);
    else if (n.k === 'binary') [n.left, n.right].forEach(visit);
    else if (n.k === 'cond') [n.test, n.then, n.else].forEach(visit);
    else if (n.k === 'array') n.items.forEach(visit);
  };
  visit(root);
  return out;
}

function variableRef(n: Extract<Node, { k: 'member' }>): VariableRef | null {
  const vars = n.object;
  if (vars.k !== 'member' || vars.computed || vars.prop.k !== 'lit' || vars.prop.v !== 'vars') return null;
  const scope = vars.object;
  if (scope.k !== 'id' || (scope.name !== 'space' && scope.name !== 'page')) return null;
  if (n.prop.k !== 'lit' || typeof n.prop.v !== 'string') return null;
  return { scope: scope.name, name: n.prop.v };
}

export interface Scope {
  space: Variables;
  page: Variables;
}

/** The calls an expression may make (a Map: no name reaches a prototype's). */
const STRING_METHODS = new Map<string, (s: string, args: unknown[]) => unknown>([
  ['toUpperCase', (s) => s.toUpperCase()],
  ['toLowerCase', (s) => s.toLowerCase()],
  ['trim', (s) => s.trim()],
  ['toString', (s) => s],
  ['includes', (s, [a]) => s.includes(String(a))],
  ['startsWith', (s, [a]) => s.startsWith(String(a))],
  ['endsWith', (s, [a]) => s.endsWith(String(a))],
]);

/** The value of an expression over the variables; `Unknown` where it depends on what is not known here. Throws ExpressionError when it does not parse. */
export function evaluateExpression(source: string, scope: Scope): unknown {
  return evaluate(parsed(source), scope);
}

function evaluate(n: Node, scope: Scope): unknown {
  switch (n.k) {
    case 'lit':
      return n.v;
    case 'id':
      return n.name === 'space' ? { vars: scope.space } : n.name === 'page' ? { vars: scope.page } : Unknown;
    case 'array':
      return n.items.map((i) => evaluate(i, scope));
    case 'member': {
      const object = evaluate(n.object, scope);
      const prop = n.computed ? evaluate(n.prop, scope) : (n.prop as { v: string }).v;
      if (object === Unknown || prop === Unknown) return Unknown;
      if (typeof object === 'string' && prop === 'length') return object.length;
      if (object === null || typeof object !== 'object' || (typeof prop !== 'string' && typeof prop !== 'number')) return undefined;
      return Object.hasOwn(object, prop) ? (object as Record<string | number, unknown>)[prop] : undefined;
    }
    case 'call': {
      if (n.callee.k !== 'member' || n.callee.computed) return Unknown;
      const target = evaluate(n.callee.object, scope);
      const method = STRING_METHODS.get((n.callee.prop as { v: string }).v);
      if (typeof target !== 'string' || !method) return Unknown;
      const args = n.args.map((a) => evaluate(a, scope));
      return args.includes(Unknown) ? Unknown : method(target, args);
    }
    case 'unary': {
      const v = evaluate(n.arg, scope);
      if (v === Unknown) return Unknown;
      return n.op === '!' ? !v : n.op === '-' ? -Number(v) : Number(v);
    }
    case 'cond': {
      const test = evaluate(n.test, scope);
      return test === Unknown ? Unknown : evaluate(test ? n.then : n.else, scope);
    }
    case 'binary':
      return binary(
        n.op,
        () => evaluate(n.left, scope),
        () => evaluate(n.right, scope),
      );
  }
}

function binary(op: string, leftOf: () => unknown, rightOf: () => unknown): unknown {
  const left = leftOf();
  if (op === '&&') return left === Unknown ? Unknown : left ? rightOf() : left;
  if (op === '||') return left === Unknown ? Unknown : left ? left : rightOf();
  if (op === '??') return left === Unknown ? Unknown : (left ?? rightOf());
  const right = rightOf();
  if (left === Unknown || right === Unknown) return Unknown;
  const l = left as number;
  const r = right as number;
  switch (op) {
    case '===':
      return left === right;
    case '!==':
      return left !== right;
    case '==':
      // biome-ignore lint/suspicious/noDoubleEquals: GitBook's expressions are JavaScript's
      return left == right;
    case '!=':
      // biome-ignore lint/suspicious/noDoubleEquals: GitBook's expressions are JavaScript's
      return left != right;
    case '<':
      return l < r;
    case '>':
      return l > r;
    case '<=':
      return l <= r;
    case '>=':
      return l >= r;
    case '+':
      return typeof left === 'string' || typeof right === 'string' ? `${expressionText(left)}${expressionText(right)}` : l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return l / r;
    case '%':
      return l % r;
    default:
      return Unknown;
  }
}

/** A value as text, as GitBook shows it (nothing for undefined and null). */
export function expressionText(value: unknown): string {
  if (value === undefined || value === null || value === Unknown) return '';
  if (Array.isArray(value)) return value.map(expressionText).join(',');
  return typeof value === 'object' ? '' : String(value);
}
