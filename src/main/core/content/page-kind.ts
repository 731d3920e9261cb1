/** What a page of a space is: a document (a file), a group (a folder and a SUMMARY.md heading) or a link (a SUMMARY.md entry). */
export type PageKind = 'document' | 'group' | 'link';

/** The kind of a page by its API `type`; computed pages and unknown types count as documents. */
export function pageKind(type: string): PageKind {
  return type === 'group' || type === 'link' ? type : 'document';
}
