/**
 * The change-request content batch (`POST .../change-requests/{id}/content`): applies up to 50
 * ordered changes to a draft of the change request's revision. Any invalid change throws a
 * BatchError and the caller discards the draft, so a batch is all-or-nothing.
 */
import { createHash } from 'node:crypto';
import type { FileRec, RevisionRec } from './model';
import { MarkdownError, parseSubmittedMarkdown, type ParsedMarkdown } from './markdown';
import { ContentError, RevisionDraft, type PagePatch } from './tree';

export type DocumentInput = { markdown: string } | { document: unknown } | Record<string, never>;

interface PageFieldsInput {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
}

export type ContentChange =
  | ({ operation: 'insert_page'; document: DocumentInput; into?: string; at?: number; ref?: string } & PageFieldsInput)
  | ({ operation: 'update_page'; page: string; document?: DocumentInput; into?: string | null; at?: number } & PageFieldsInput)
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string; block?: string[] }
  | { operation: 'insert_files'; files: Array<{ name: string; contentType?: string; ref?: string; url?: string; base64?: string }> };

export interface BatchChangeResult {
  object: 'created_page' | 'updated_page' | 'deleted_page';
  pageId: string;
  ref?: string;
}

export interface BatchContext {
  newId(prefix: string): string;
  /** Stores bytes and returns their blob key. */
  putBlob(bytes: Buffer, contentType: string): string;
  /** Resolves an `insert_files` URL to bytes the fake already holds, or undefined. */
  blobForUrl(url: string): { bytes: Buffer; contentType: string } | undefined;
  /** Revision a `revert_page` without `revision` reverts to (the change request's base). */
  revisionFor(id: string | undefined): RevisionRec | undefined;
}

export class BatchError extends Error {}

export interface BatchOutcome {
  changes: BatchChangeResult[];
  insertedFiles: FileRec[];
}

export function applyBatch(draft: RevisionDraft, changes: ContentChange[], ctx: BatchContext): BatchOutcome {
  const pageRefs = new Map<string, string>();
  const fileRefs = new Map<string, string>();
  // File refs resolve regardless of operation order, so their ids are allocated up front.
  for (const change of changes) {
    if (change.operation !== 'insert_files') continue;
    for (const file of change.files) if (file.ref !== undefined) fileRefs.set(file.ref, ctx.newId('file'));
  }
  const outcome: BatchOutcome = { changes: [], insertedFiles: [] };
  const resolvePage = (idOrRef: string): string => pageRefs.get(idOrRef) ?? idOrRef;

  changes.forEach((change, index) => {
    try {
      applyOne(change);
    } catch (error) {
      if (error instanceof ContentError || error instanceof MarkdownError) {
        throw new BatchError(`changes[${index}] (${change.operation}): ${error.message}. Nothing in this batch was applied.`);
      }
      throw error;
    }
  });
  return outcome;

  function applyOne(change: ContentChange): void {
    switch (change.operation) {
      case 'insert_page': {
        const parsed = parseDocument(change.document, change.title, fileRefs);
        const title = parsed.metadata.title;
        if (!title) {
          throw new ContentError('a new page needs a title: pass `title`, a frontmatter `title`, or start the markdown with a `# Heading`');
        }
        const parentId = change.into === undefined ? null : resolvePage(change.into);
        const id = ctx.newId('page');
        draft.insertPage(
          id,
          {
            type: 'document',
            title,
            slug: change.slug ?? draft.freeSlug(parentId, title),
            hidden: change.hidden ?? parsed.metadata.hidden ?? false,
            markdown: parsed.body,
            ...optional('description', parsed.metadata.description),
            ...optional('icon', change.icon ?? parsed.metadata.icon),
            ...optional('emoji', change.emoji ?? parsed.metadata.emoji),
          },
          parentId,
          change.at,
        );
        if (change.ref !== undefined) pageRefs.set(change.ref, id);
        outcome.changes.push({ object: 'created_page', pageId: id, ...optional('ref', change.ref) });
        return;
      }
      case 'update_page': {
        const id = resolvePage(change.page);
        const page = draft.requirePage(id);
        const patch: PagePatch = {};
        if (change.document !== undefined) {
          if (page.type !== 'document') throw new ContentError(`page "${id}" is a ${page.type} page; only document pages have content`);
          const parsed = parseDocument(change.document, change.title, fileRefs);
          Object.assign(patch, withoutUndefined({ ...parsed.metadata, markdown: parsed.body }));
        }
        Object.assign(patch, withoutUndefined({ title: change.title, slug: change.slug, emoji: change.emoji, icon: change.icon, hidden: change.hidden }));
        draft.updatePage(id, patch);
        if (change.into !== undefined || change.at !== undefined) {
          const parentId = change.into === undefined ? draft.requirePage(id).parentId : change.into === null ? null : resolvePage(change.into);
          draft.movePage(id, parentId, change.at);
        }
        outcome.changes.push({ object: 'updated_page', pageId: id });
        return;
      }
      case 'delete_page': {
        const id = resolvePage(change.page);
        draft.deletePage(id);
        outcome.changes.push({ object: 'deleted_page', pageId: id });
        return;
      }
      case 'revert_page': {
        const id = resolvePage(change.page);
        const source = ctx.revisionFor(change.revision);
        if (!source) throw new ContentError(`revision "${change.revision ?? ''}" does not exist in this space`);
        const original = source.pages.get(id);
        const current = draft.page(id);
        if (!original) {
          if (!current) throw new ContentError(`page "${id}" exists neither in this change request nor in revision "${source.id}"`);
          draft.deletePage(id);
          outcome.changes.push({ object: 'deleted_page', pageId: id });
        } else {
          draft.restorePage(original);
          outcome.changes.push({ object: current ? 'updated_page' : 'created_page', pageId: id });
        }
        return;
      }
      case 'insert_files': {
        for (const file of change.files) {
          const source = fileSource(file, ctx);
          const contentType = file.contentType ?? source.contentType ?? guessContentType(file.name);
          const record: FileRec = {
            id: (file.ref !== undefined ? fileRefs.get(file.ref) : undefined) ?? ctx.newId('file'),
            name: file.name,
            contentType,
            size: source.bytes.length,
            blobKey: ctx.putBlob(source.bytes, contentType),
          };
          draft.putFile(record);
          outcome.insertedFiles.push(record);
        }
        return;
      }
    }
  }
}

/** The markdown of a `Document` input: `{ markdown }`, `{ document }` (text extracted) or `{}`. */
export function documentInputToMarkdown(document: DocumentInput): string {
  if ('markdown' in document && typeof document.markdown === 'string') return document.markdown;
  return 'document' in document ? jsonDocumentText(document.document) : '';
}

function parseDocument(document: DocumentInput, explicitTitle: string | undefined, fileRefs: Map<string, string>): ParsedMarkdown {
  const markdown = documentInputToMarkdown(document);
  const withFiles = markdown.replace(/\]\(\.\/([^)\s]+)\)/g, (whole, ref: string) => {
    const fileId = fileRefs.get(ref);
    return fileId ? `](/files/${fileId})` : whole;
  });
  return parseSubmittedMarkdown(withFiles, explicitTitle);
}

/** Plain text of a JSON document: one block per paragraph, headings as `#` lines. */
function jsonDocumentText(document: unknown): string {
  const blocks: string[] = [];
  const textOf = (node: unknown): string => {
    if (!node || typeof node !== 'object') return '';
    const n = node as { object?: string; text?: string; leaves?: unknown[]; nodes?: unknown[] };
    if (n.object === 'leaf') return n.text ?? '';
    return [...(n.leaves ?? []), ...(n.nodes ?? [])].map(textOf).join('');
  };
  for (const block of (document as { nodes?: unknown[] })?.nodes ?? []) {
    const type = (block as { type?: string })?.type ?? '';
    const level = /^heading-(\d)$/.exec(type)?.[1];
    const text = textOf(block);
    blocks.push(level ? `${'#'.repeat(Number(level))} ${text}` : text);
  }
  return blocks.join('\n\n');
}

function fileSource(file: { name: string; url?: string; base64?: string }, ctx: BatchContext): { bytes: Buffer; contentType?: string } {
  if (file.base64 !== undefined) {
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(file.base64)) throw new ContentError(`file "${file.name}": base64 content is not valid base64`);
    return { bytes: Buffer.from(file.base64, 'base64') };
  }
  const known = file.url !== undefined ? ctx.blobForUrl(file.url) : undefined;
  if (!known) {
    throw new ContentError(
      `file "${file.name}": the fake API cannot download ${file.url ?? 'a missing URL'}; send the bytes as \`base64\` or use a downloadURL of this fake`,
    );
  }
  return known;
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  zip: 'application/zip',
};

export function guessContentType(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (ext && CONTENT_TYPES[ext]) ?? 'application/octet-stream';
}

export function blobKeyFor(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
