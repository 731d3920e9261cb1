/**
 * Turns planned pushes (plan/emit-changes.ts) into the API's change-request content changes and
 * splits them into batches (pure).
 *
 * - a new file: `insert_page` under its parent (`into`), after the sibling it follows here
 *   (`at`, worked out when sent), with its file name as slug; its text carries title and
 *   frontmatter;
 * - an edited, moved, renamed or reordered file: one `update_page` (document, `into`/`at`, slug);
 * - a page the change request deleted that came back: `revert_page`, then `update_page`;
 * - a deleted file: `delete_page`, after every move, so children moved out survive;
 * - new assets: `insert_files` (at most 20 files per change, bytes inline).
 *
 * A batch holds at most 50 changes. A change that needs a page created in the same push (a file
 * in a new folder, or a link to a new page or asset) goes in a later batch than what it needs,
 * so every id it names is real when sent. Texts name new pages and assets as `/pages/new:<path>`
 * and `/files/new:<path>` until then (push.ts resolves them).
 */
import { findReferences, pageTitleOf, parseNewRef } from '../content';
import { isNewPageKey, type LocalAsset, type PushOp } from './plan';
import { clipText } from '../../../shared/clip-text';
import { cleanSubject } from '../../../shared/subject';

const MAX_CHANGES_PER_BATCH = 50;
export const MAX_FILES_PER_CHANGE = 20;
/** The API takes inline (base64) files up to 1 MB. */
export const MAX_INLINE_FILE_BYTES = 1024 * 1024;

/** An API content change as sent (see ChangeRequestContentChange in the OpenAPI document). */
export type ApiChange = Record<string, unknown> & { operation: string };

/** What a change does to the record of the change request once applied (outbox.ts). */
export type PushEffect =
  | { type: 'insert'; key: string; ref: string; path: string; text: string; parentKey: string | null; after: string | null; name: string; slug: string | null }
  | {
      type: 'update';
      id: string;
      path: string;
      /** The text sent (null: its text was not part of this change). */
      text: string | null;
      textSent: boolean;
      /** The text the change request holds for the page afterwards (null: main's, unknown). */
      record: string | null;
      parentKey: string | null;
      after: string | null;
      name: string;
      /** The change placed it (parent or name): the change request places it from now on. */
      moved: boolean;
      /** The change set its place among its siblings. */
      ordered: boolean;
    }
  | { type: 'revert'; id: string }
  | { type: 'delete'; id: string; path: string | null }
  | { type: 'files'; files: { path: string; name: string; size: number }[] };

/** A change that may still name pages and files created earlier in the same push by their keys. */
export interface PlannedChange {
  change: ApiChange;
  effect: PushEffect;
  /** Key of a page to be created that `into` refers to (resolved just before sending). */
  intoKey: string | null;
  /** Where it goes among its siblings, worked out just before sending (`at`; none when `last`); undefined: it keeps its place. */
  place?: { parentKey: string | null; after: string | null; last: boolean };
  /** Keys of new pages and assets its text links to (`new:<path>`). */
  links: string[];
}

/** The new pages and assets a text links to, as placeholders (`/pages/new:<path>`, `/files/new:<path>`). */
export function placeholderKeys(text: string | null): string[] {
  if (text === null || !text.includes('new:')) return [];
  const keys = new Set<string>();
  for (const ref of findReferences(text)) {
    const placeholder = parseNewRef(ref.href);
    if (placeholder) keys.add(`new:${placeholder.path}`);
  }
  return [...keys];
}

export interface PlannedBatch {
  changes: PlannedChange[];
}

export interface AssetContent {
  base64: string;
  contentType: string;
}

/** A slug the API accepts, from a file or folder name (null when nothing usable is left). */
export function slugFor(name: string): string | null {
  if (/^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/.test(name)) return name;
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return slug === '' ? null : slug;
}

/** Orders the pushes so parents come before children and deletes come last, then batches them. */
export function buildBatches(ops: readonly PushOp[], assets: ReadonlyMap<string, AssetContent> = new Map()): PlannedBatch[] {
  const groups: PlannedChange[][] = [];
  for (const op of ops) if (op.op === 'files') groups.push(...fileChanges(op.assets, assets).map((c) => [c]));
  for (const op of sortInserts(ops.filter((o): o is Extract<PushOp, { op: 'insert' }> => o.op === 'insert'))) groups.push([insertChange(op)]);
  for (const op of ops) if (op.op === 'update') groups.push(updateChanges(op));
  for (const op of ops)
    if (op.op === 'delete')
      groups.push([{ change: { operation: 'delete_page', page: op.id }, effect: { type: 'delete', id: op.id, path: op.path }, intoKey: null, links: [] }]);

  const batches: PlannedBatch[] = [];
  let current: PlannedChange[] = [];
  let createdHere = new Set<string>();
  for (const group of groups) {
    // A change linking a page or asset created in this batch waits for the next (inserts link
    // each other by ref instead).
    const needsNew = group.some(
      (c) => (c.intoKey !== null && createdHere.has(c.intoKey)) || (c.effect.type !== 'insert' && c.links.some((k) => createdHere.has(k))),
    );
    if (current.length > 0 && (current.length + group.length > MAX_CHANGES_PER_BATCH || needsNew)) {
      batches.push({ changes: current });
      current = [];
      createdHere = new Set();
    }
    current.push(...group);
    for (const c of group) {
      if (c.effect.type === 'insert') createdHere.add(c.effect.key);
      if (c.effect.type === 'files') for (const f of c.effect.files) createdHere.add(`new:${f.path}`);
    }
  }
  if (current.length > 0) batches.push({ changes: current });
  return batches;
}

/** Inserts in an order where every new parent comes before its new children. */
function sortInserts<T extends { key: string; parentKey: string | null; path: string }>(inserts: T[]): T[] {
  const byKey = new Map(inserts.map((i) => [i.key, i]));
  const depth = (i: T): number => {
    let d = 0;
    for (let p = i.parentKey; p !== null && byKey.has(p) && d < inserts.length; p = byKey.get(p)!.parentKey) d++;
    return d;
  };
  return [...inserts].sort((a, b) => depth(a) - depth(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function insertChange(op: Extract<PushOp, { op: 'insert' }>): PlannedChange {
  const slug = slugFor(op.name);
  const ref = `quire-${op.path.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 80)}`;
  const hasTitle = pageTitleOf(op.text) !== null;
  const change: ApiChange = {
    operation: 'insert_page',
    ref,
    document: { markdown: op.text },
    ...(hasTitle ? {} : { title: op.title || op.name || 'Untitled' }),
    ...(slug !== null ? { slug } : {}),
    ...(op.parentKey !== null ? { into: op.parentKey } : {}),
  };
  return {
    change,
    effect: { type: 'insert', key: op.key, ref, path: op.path, text: op.text, parentKey: op.parentKey, after: op.after, name: op.name, slug },
    intoKey: op.parentKey !== null && isNewPageKey(op.parentKey) ? op.parentKey : null,
    place: { parentKey: op.parentKey, after: op.after, last: op.last },
    links: placeholderKeys(op.text),
  };
}

function updateChanges(op: Extract<PushOp, { op: 'update' }>): PlannedChange[] {
  const out: PlannedChange[] = [];
  if (op.restore) out.push({ change: { operation: 'revert_page', page: op.id }, effect: { type: 'revert', id: op.id }, intoKey: null, links: [] });
  const slug = op.rename !== null ? slugFor(op.rename) : null;
  const change: ApiChange = {
    operation: 'update_page',
    page: op.id,
    ...(op.text !== null ? { document: { markdown: op.text } } : {}),
    ...(slug !== null ? { slug } : {}),
    ...(op.title !== null ? { title: op.title } : {}),
    ...(op.move ? { into: op.move.parentKey } : {}),
  };
  const moveKey = op.move?.parentKey ?? null;
  out.push({
    change,
    effect: {
      type: 'update',
      id: op.id,
      path: op.path,
      text: op.text,
      textSent: op.text !== null,
      record: op.record,
      parentKey: op.parentKey,
      after: op.after,
      name: op.name,
      moved: op.move !== null || op.rename !== null,
      ordered: op.move !== null,
    },
    intoKey: moveKey !== null && isNewPageKey(moveKey) ? moveKey : null,
    ...(op.move ? { place: op.move } : {}),
    links: placeholderKeys(op.text),
  });
  return out;
}

function fileChanges(list: readonly LocalAsset[], contents: ReadonlyMap<string, AssetContent>): PlannedChange[] {
  const sendable = list.filter((a) => contents.has(a.path));
  const out: PlannedChange[] = [];
  for (let i = 0; i < sendable.length; i += MAX_FILES_PER_CHANGE) {
    const chunk = sendable.slice(i, i + MAX_FILES_PER_CHANGE);
    out.push({
      change: {
        operation: 'insert_files',
        files: chunk.map((a) => ({ name: a.name, contentType: contents.get(a.path)!.contentType, base64: contents.get(a.path)!.base64 })),
      },
      effect: { type: 'files', files: chunk.map((a) => ({ path: a.path, name: a.name, size: a.size })) },
      intoKey: null,
      links: [],
    });
  }
  return out;
}

/** Replaces the key of a parent created earlier in this push by its id; throws if it is missing. */
export function resolveChange(planned: PlannedChange, created: ReadonlyMap<string, string>): ApiChange {
  if (planned.intoKey === null) return planned.change;
  const id = created.get(planned.intoKey);
  if (id === undefined) throw new Error(`The parent page of ${describeEffect(planned.effect)} was not created; it will be pushed again next sync.`);
  return { ...planned.change, into: id };
}

export function describeEffect(effect: PushEffect): string {
  switch (effect.type) {
    case 'insert':
    case 'update':
    case 'delete':
      return effect.path ?? `page ${'id' in effect ? effect.id : ''}`;
    case 'revert':
      return `page ${effect.id}`;
    case 'files':
      return effect.files.map((f) => f.path).join(', ');
  }
}

/** One thing a change request holds, for its subject: an added, edited, moved or deleted page (or an added file). */
export interface SubjectItem {
  verb: 'add' | 'edit' | 'move' | 'delete';
  title: string;
}

const VERB_ORDER: Record<SubjectItem['verb'], number> = { add: 0, edit: 1, move: 2, delete: 3 };
/** The API's limit (`ChangeRequestSubject`). */
export const MAX_SUBJECT = 100;

/** What a push holds, page by page: an insert is an add, a text change an edit, a place-only change a move, a delete a delete. */
export function subjectItemsOf(ops: readonly PushOp[]): SubjectItem[] {
  const items: SubjectItem[] = [];
  for (const op of ops) {
    if (op.op === 'insert') items.push({ verb: 'add', title: pageTitleOf(op.text) ?? op.title ?? op.name });
    if (op.op === 'update') {
      const text = op.text ?? op.record;
      items.push({ verb: op.text === null && (op.move || op.rename) ? 'move' : 'edit', title: (text === null ? null : pageTitleOf(text)) ?? op.name });
    }
    if (op.op === 'delete' && op.path) items.push({ verb: 'delete', title: titleOfPath(op.path) });
    if (op.op === 'files') items.push(...op.assets.map((a) => ({ verb: 'add' as const, title: a.name })));
  }
  return items;
}

/** A page's name from its file path when nothing better is known: `guide/README.md` is “guide”. */
export function titleOfPath(path: string): string {
  return (
    path
      .replace(/(\/README)?\.md$/i, '')
      .split('/')
      .pop() || path
  );
}

/**
 * A subject that says in words what the change request holds: `Add ‘My new page’, edit ‘Install’
 * (+2 more)`, titles in single quotes (a subject is shown in double ones). Adds first, then edits, moves and deletes; at most two named, within the API's 100
 * characters.
 */
export function changeRequestSubject(items: readonly SubjectItem[]): string {
  const seen = new Set<string>();
  const unique = [...items]
    .map((i) => ({ ...i, title: cleanSubject(i.title.replace(/\s+/g, ' ')) }))
    .filter((i) => i.title !== '' && !seen.has(`${i.verb}\u0000${i.title}`) && seen.add(`${i.verb}\u0000${i.title}`))
    .sort((a, b) => VERB_ORDER[a.verb] - VERB_ORDER[b.verb]);
  if (unique.length === 0) return 'Edits from Quire';
  for (const [named, width] of [
    [2, 40],
    [2, 24],
    [1, 60],
    [1, 30],
  ] as const) {
    const shown = unique.slice(0, named);
    const rest = unique.length - shown.length;
    // Single quotes: hosts show the subject itself in double ones (“Add ‘Install’”), and nested doubles do not read.
    const quote = (t: string) => `‘${clipText(t, width)}’`;
    const words = shown.map((i, n) => `${n === 0 ? i.verb[0]!.toUpperCase() + i.verb.slice(1) : i.verb} ${quote(i.title)}`).join(', ');
    const subject = rest > 0 ? `${words} (+${rest} more)` : words;
    if (subject.length <= MAX_SUBJECT) return subject;
  }
  return `${unique.length} changes from Quire`;
}
