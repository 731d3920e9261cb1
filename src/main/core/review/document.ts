/**
 * A change request's description is a rich-text document (the API's `JSONDocument`), not
 * markdown. Quire writes one as plain paragraphs (a heading line as a heading), and reads one
 * back as text: what a terminal or a text box can show. Inline formatting is not kept.
 */

interface DocNode {
  object?: string;
  type?: string;
  text?: string;
  leaves?: { text?: string }[];
  nodes?: DocNode[];
}

/** A description as the API takes it, from markdown: one block per paragraph. */
export function markdownToDocument(markdown: string): { object: 'document'; data: Record<string, never>; nodes: unknown[] } {
  const nodes = markdown
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((b) => b.trim())
    .filter((b) => b !== '')
    .map((block) => {
      const heading = /^(#{1,3}) +(.*)$/.exec(block);
      const text = heading ? (heading[2] ?? '') : block;
      const leaves = [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }];
      return heading
        ? { object: 'block', type: `heading-${heading[1]!.length}`, data: {}, nodes: leaves }
        : { object: 'block', type: 'paragraph', nodes: leaves };
    });
  return { object: 'document', data: {}, nodes };
}

/** The text of a document, a blank line between blocks; null when it holds none. */
export function documentText(doc: unknown): string | null {
  if (doc === null || typeof doc !== 'object') return null;
  const textOf = (n: DocNode): string => {
    if (n.object === 'text') return (n.leaves ?? []).map((l) => l.text ?? '').join('') + (n.text ?? '');
    return (n.nodes ?? []).map(textOf).join('');
  };
  const blocks = ((doc as DocNode).nodes ?? []).map((n) => textOf(n).trim()).filter((t) => t !== '');
  return blocks.length > 0 ? blocks.join('\n\n') : null;
}
