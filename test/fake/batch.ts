/**
 * The change-request content batch (`POST .../change-requests/{id}/content`): applies up to 50
 * ordered changes to a draft of the change request's revision. Any invalid change throws a
 * BatchError and the caller discards the draft, so a batch is all-or-nothing.
 *
 * Refs: every `ref` of the batch (pages and files) is checked and given its id before the first
 * change applies, so content can link to a page or file inserted later (`./<ref>.md`,
 * `./<ref>`). A ref must be unique in the batch and must not be the path of an existing page.
 * How markdown is read (metadata precedence, reference resolution) follows MarkdownSettings.
 */
import { type FileInput, fileSource, guessContentType } from './batch-files';
import { MarkdownError, normaliseBody, parseSubmittedMarkdown, type PageMetadata, type ParsedMarkdown } from './markdown';
import { type MarkdownSettings, UNTITLED } from './markdown-settings';
import type { FileRec, RevisionRec } from './model';
import { PageIndex } from './page-index';
import { resolveSubmittedRefs } from './ref-resolution';
import { ContentError, GIT_SYNC_KEYS, type PagePatch, type RevisionDraft } from './tree';

export { blobKeyFor, guessContentType } from './batch-files';

export type DocumentInput = { markdown: string } | { document: unknown } | Record<string, never>;

interface PageFieldsInput {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
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
  | { operation: 'insert_files'; files: Array<FileInput & { ref?: string }> };

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
  markdown: Readonly<MarkdownSettings>;
}

export class BatchError extends Error {}

export interface BatchOutcome {
  changes: BatchChangeResult[];
  insertedFiles: FileRec[];
}

const METADATA_KEYS = ['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex'] as const;

export function applyBatch(draft: RevisionDraft, changes: ContentChange[], ctx: BatchContext): BatchOutcome {
  const refs = collectRefs(draft, changes, ctx);
  const insertedRefs = new Set<string>();
  const settings = ctx.markdown;
  const outcome: BatchOutcome = { changes: [], insertedFiles: [] };

  const resolvePage = (idOrRef: string): string => {
    const id = refs.pages.get(idOrRef);
    if (id === undefined) return idOrRef;
    if (!insertedRefs.has(idOrRef)) throw new ContentError(`"${idOrRef}" is the ref of a page inserted later in this batch; insert that page first`);
    return id;
  };

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
        const parsed = parseDocument(change.document, change.title);
        const title = parsed.metadata.title ?? (settings.documentMetadataFirst ? UNTITLED : undefined);
        if (!title) {
          throw new ContentError('a new page needs a title: pass `title`, a frontmatter `title`, or start the markdown with a `# Heading`');
        }
        const parentId = change.into === undefined ? null : resolvePage(change.into);
        const id = (change.ref !== undefined ? refs.pages.get(change.ref) : undefined) ?? ctx.newId('page');
        const metadata = metadataOf(change, parsed.metadata);
        const gitSync = Object.fromEntries(Object.entries(gitSyncOf(parsed.metadata)).filter(([, v]) => v !== null));
        draft.insertPage(
          id,
          {
            type: 'document',
            title,
            slug: change.slug ?? draft.freeSlug(parentId, title),
            markdown: parsed.body,
            ...metadata,
            ...gitSync,
            hidden: metadata.hidden ?? false,
          },
          parentId,
          change.at,
        );
        if (change.ref !== undefined) insertedRefs.add(change.ref);
        storeBody(id, parsed.body);
        outcome.changes.push({ object: 'created_page', pageId: id, ...(change.ref !== undefined ? { ref: change.ref } : {}) });
        return;
      }
      case 'update_page': {
        const id = resolvePage(change.page);
        const page = draft.requirePage(id);
        let parsed: ParsedMarkdown | undefined;
        if (change.document !== undefined) {
          if (page.type !== 'document') throw new ContentError(`page "${id}" is a ${page.type} page; only document pages have content`);
          parsed = parseDocument(change.document, change.title);
        }
        const title = settings.documentMetadataFirst ? (parsed?.metadata.title ?? change.title) : (change.title ?? parsed?.metadata.title);
        draft.updatePage(
          id,
          withoutUndefined<PagePatch>({
            title,
            slug: change.slug,
            ...metadataOf(change, parsed?.metadata ?? {}),
            ...(parsed ? gitSyncOf(parsed.metadata) : {}),
          }),
        );
        if (change.into !== undefined || change.at !== undefined) {
          const parentId = change.into === undefined ? draft.requirePage(id).parentId : change.into === null ? null : resolvePage(change.into);
          draft.movePage(id, parentId, change.at);
        }
        // Relative links are relative to where the page ends up, so the body is stored last.
        if (parsed) storeBody(id, parsed.body);
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
          const source = fileSource(file, ctx.blobForUrl);
          const contentType = file.contentType ?? source.contentType ?? guessContentType(file.name);
          const record: FileRec = {
            id: (file.ref !== undefined ? refs.files.get(file.ref) : undefined) ?? ctx.newId('file'),
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

  /** Page metadata of a change: its fields and its document's frontmatter, in the settings' precedence. */
  function metadataOf(change: PageFieldsInput, fromDocument: PageMetadata): Partial<Pick<PageMetadata, (typeof METADATA_KEYS)[number]>> {
    const out: Record<string, unknown> = {};
    for (const key of METADATA_KEYS) {
      const value = settings.documentMetadataFirst ? (fromDocument[key] ?? change[key]) : (change[key] ?? fromDocument[key]);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }

  function parseDocument(document: DocumentInput, explicitTitle: string | undefined): ParsedMarkdown {
    let markdown = documentInputToMarkdown(document);
    // The fake's original rule, kept while stable references are off: `](./<ref>)` names a batch file.
    if (!settings.stableRefs) {
      markdown = markdown.replace(/\]\(\.\/([^)\s]+)\)/g, (whole, ref: string) => {
        const fileId = refs.files.get(ref);
        return fileId ? `](/files/${fileId})` : whole;
      });
    }
    return parseSubmittedMarkdown(markdown, explicitTitle, { documentFirst: settings.documentMetadataFirst });
  }

  /** Git Sync's keys a document sets (null: it does not hold the key, which clears it). */
  function gitSyncOf(fromDocument: PageMetadata): Pick<PagePatch, (typeof GIT_SYNC_KEYS)[number]> {
    return Object.fromEntries(GIT_SYNC_KEYS.map((k) => [k, fromDocument[k] ?? null]));
  }

  /** Stores a page body, its references resolved to stable ones when the settings say so. */
  function storeBody(pageId: string, body: string): void {
    const markdown = settings.stableRefs
      ? normaliseBody(
          resolveSubmittedRefs(body, {
            index: PageIndex.of(draft.snapshot()),
            pageId,
            pageRefs: refs.pages,
            fileRefs: refs.files,
            unresolvedLinks: settings.unresolvedLinks,
          }),
        )
      : body;
    draft.updatePage(pageId, { markdown });
  }
}

/** Checks every ref of the batch and gives it the id its page or file will have. */
function collectRefs(draft: RevisionDraft, changes: ContentChange[], ctx: BatchContext): { pages: Map<string, string>; files: Map<string, string> } {
  const pages = new Map<string, string>();
  const files = new Map<string, string>();
  const owners = new Map<string, string>();
  let index: PageIndex | undefined; // built only when the batch has refs
  changes.forEach((change, i) => {
    const declared: Array<[string, 'page' | 'file']> =
      change.operation === 'insert_page' && change.ref !== undefined
        ? [[change.ref, 'page']]
        : change.operation === 'insert_files'
          ? change.files.flatMap((f): Array<[string, 'file']> => (f.ref !== undefined ? [[f.ref, 'file']] : []))
          : [];
    for (const [ref, kind] of declared) {
      const where = `changes[${i}] (${change.operation})`;
      const owner = owners.get(ref);
      if (owner !== undefined) {
        throw new BatchError(`${where}: ref "${ref}" is already used by ${owner}; refs must be unique within a batch. Nothing in this batch was applied.`);
      }
      index ??= PageIndex.of(draft.snapshot());
      if (index.byPath(ref) !== undefined) {
        throw new BatchError(`${where}: ref "${ref}" is the path of an existing page; choose a ref that is no page's path. Nothing in this batch was applied.`);
      }
      owners.set(ref, where);
      (kind === 'page' ? pages : files).set(ref, ctx.newId(kind));
    }
  });
  return { pages, files };
}

/** The markdown of a `Document` input: `{ markdown }`, `{ document }` (text extracted) or `{}`. */
export function documentInputToMarkdown(document: DocumentInput): string {
  if ('markdown' in document && typeof document.markdown === 'string') return document.markdown;
  return 'document' in document ? jsonDocumentText(document.document) : '';
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

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
