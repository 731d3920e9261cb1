/**
 * GitBook JSON documents (`JSONDocument`) for seeding the fake's reusable content, written the
 * way GitBook stores them: blocks with `data`, text in leaves with marks, references as content
 * refs. The fake checks every answer against the OpenAPI document, so a document built here
 * that GitBook could not hold fails the test that serves it.
 */
type Json = Record<string, unknown>;
type Mark = 'bold' | 'italic' | 'code' | 'strikethrough' | 'keyboard' | 'superscript' | 'subscript';

export const doc = (...nodes: Json[]): Json => ({ object: 'document', data: {}, nodes });

export const text = (value: string, ...marks: Mark[]): Json => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
});

const inlines = (parts: (string | Json)[]): Json[] => parts.map((p) => (typeof p === 'string' ? text(p) : p));

export const p = (...parts: (string | Json)[]): Json => ({ object: 'block', type: 'paragraph', data: {}, nodes: inlines(parts) });

export const h = (level: 1 | 2 | 3, ...parts: (string | Json)[]): Json => ({ object: 'block', type: `heading-${level}`, data: {}, nodes: inlines(parts) });

export const hint = (style: 'info' | 'warning' | 'danger' | 'success', ...nodes: Json[]): Json => ({ object: 'block', type: 'hint', data: { style }, nodes });

export const expression = (value: string): Json => ({ object: 'inline', type: 'expression', data: { expression: value }, isVoid: true });

export const pageLink = (label: string, page: string, anchor?: string): Json => ({
  object: 'inline',
  type: 'link',
  data: { ref: anchor === undefined ? { kind: 'page', page } : { kind: 'anchor', page, anchor } },
  nodes: [text(label)],
  isVoid: false,
});

export const urlLink = (label: string, url: string): Json => ({
  object: 'inline',
  type: 'link',
  data: { ref: { kind: 'url', url } },
  nodes: [text(label)],
  isVoid: false,
});

const item = (...nodes: Json[]): Json => ({ object: 'block', type: 'list-item', data: {}, nodes });

export const ordered = (...items: (string | Json)[]): Json => ({
  object: 'block',
  type: 'list-ordered',
  data: {},
  nodes: items.map((i) => item(typeof i === 'string' ? p(i) : i)),
});

export const bullets = (...items: (string | Json)[]): Json => ({
  object: 'block',
  type: 'list-unordered',
  data: {},
  nodes: items.map((i) => item(typeof i === 'string' ? p(i) : i)),
});

export const code = (syntax: string, lines: string[], more: Json = {}): Json => ({
  object: 'block',
  type: 'code',
  data: { syntax, ...more },
  nodes: lines.map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] })),
});

export const tabs = (...items: { title: string; nodes: Json[] }[]): Json => ({
  object: 'block',
  type: 'tabs',
  data: {},
  nodes: items.map((t) => ({ object: 'block', type: 'tabs-item', data: { title: t.title }, nodes: t.nodes })),
});

export const condition = (expressionText: string, ...nodes: Json[]): Json => ({ object: 'block', type: 'if', data: { expression: expressionText }, nodes });

export const divider = (): Json => ({ object: 'block', type: 'divider', data: {}, isVoid: true });
