/**
 * A space's own files beside its pages, as GitBook's Git Sync writes them: each reusable content
 * in `.gitbook/includes/<name>.md` (a `title:` frontmatter, then its document as GitBook markdown,
 * links relative) and the space's variables in `.gitbook/vars.yaml`.
 *
 * - Pulled when main moved: a reusable content's document is fetched only when it changed (one
 *   request each; the revision lists them with their document ids), the variables come with
 *   the revision itself. An include keeps its name once written (the server's Git path, else
 *   the name Git Sync gives its title), so pages' `{% include %}` paths stay put.
 * - No change-request operation can change either (insert_page, update_page, delete_page,
 *   revert_page, insert_files): a file the writer changed is kept, never overwritten nor
 *   pushed, and held with one line (`extrasHeld`). A file the writer deleted is written again
 *   from GitBook: that is how to take GitBook's version back.
 * - Cost: an idle cycle reads the record and nothing else; the files are looked at only when the
 *   watcher's paths reach them (or everything is looked at).
 */
import { lstatSync, readFileSync } from 'node:fs';
import { type ApiClient, ApiError } from '../api';
import {
  assemblePageFile,
  documentToMarkdown,
  readVariablesFile,
  sameVariables,
  SPACE_VARIABLES_FILE,
  toLocalLinks,
  type VariableValue,
  variablesYaml,
} from '../content';
import { gitbookYaml } from '../content';
import type { Mirror } from '../mirror';
import { pageDocument } from '../search';
import {
  type ExtrasRecord,
  type FileSeen,
  type FileState,
  includeKey,
  INCLUDES_FOLDER,
  type IncludeRecord,
  isIncludePath,
  readExtras,
  writeExtras,
} from './extras-record';
import { sha256 } from './hash';
import type { LinkResolver } from './link-targets';
import type { OwnWrites } from './own-writes';
import type { Held } from './plan';
import { MAX_SEGMENT_BYTES, type NameRules, nameCandidates, nameKey } from '../naming';
import type { RemoteTree } from './remote';
import { removeFileInside, resolveInside, writeFileAtomicStat } from './safe-fs';
import type { ScanHint } from './scan';

export interface ExtrasContext {
  api: ApiClient;
  mirror: Pick<Mirror, 'catalog' | 'content' | 'history' | 'log' | 'search' | 'transaction'>;
  spaceId: string;
  spaceDir: string;
  links: LinkResolver;
  names: NameRules;
  at: string;
  signal?: AbortSignal;
  ownWrites?: OwnWrites;
}

/** A file the writer changed since the last cycle, with its text (search and history follow it). */
export interface ExtrasEdit {
  key: string;
  path: string;
  title: string;
  text: string;
}

const touches = (hint: ScanHint): boolean =>
  hint === 'all' ||
  hint.some((p) => p === '' || p === '.gitbook' || p === INCLUDES_FOLDER || p.startsWith(`${INCLUDES_FOLDER}/`) || p === SPACE_VARIABLES_FILE);

/** How the file at `path` stands against what was written there, and its stat and hash as it is now. */
function fileState(spaceDir: string, path: string, seen: FileSeen | null): { state: FileState; seen: FileSeen | null; text: string | null } {
  let abs: string;
  try {
    abs = resolveInside(spaceDir, path);
  } catch {
    return { state: 'edited', seen, text: null };
  }
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return { state: 'missing', seen, text: null };
  // A link or a folder there is the writer's: left alone, never written through.
  if (!st.isFile()) return { state: 'edited', seen, text: null };
  const stat = { size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino) };
  if (seen && seen.size === stat.size && seen.mtimeMs === stat.mtimeMs && seen.ino === stat.ino) return { state: 'synced', seen, text: null };
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch {
    return { state: 'edited', seen, text: null };
  }
  const hash = sha256(bytes);
  if (seen && hash === seen.hash) return { state: 'synced', seen: { ...stat, hash }, text: null };
  return { state: 'edited', seen, text: bytes.toString('utf8') };
}

/**
 * The record, with what the writer did to the files since: looked at only when the watcher's
 * paths reach them (`looked`), else as recorded. `edits`: files found changed this time.
 */
export function seeExtras(
  mirror: Pick<Mirror, 'catalog'>,
  spaceId: string,
  spaceDir: string,
  hint: ScanHint,
): { record: ExtrasRecord; looked: boolean; edits: ExtrasEdit[] } {
  const record = readExtras(mirror, spaceId);
  if (!touches(hint) || (record.includes.length === 0 && record.vars === null)) return { record, looked: false, edits: [] };
  const edits: ExtrasEdit[] = [];
  const includes = record.includes.map((i): IncludeRecord => {
    const now = fileState(spaceDir, i.path, i.seen);
    if (now.text !== null) edits.push({ key: includeKey(i.id), path: i.path, title: i.title, text: now.text });
    return { ...i, state: now.state, seen: now.seen };
  });
  let vars = record.vars;
  if (vars) {
    const now = fileState(spaceDir, SPACE_VARIABLES_FILE, vars.seen);
    vars = { ...vars, state: now.state, seen: now.seen };
  }
  return { record: { includes, vars }, looked: true, edits };
}

/** Search and history follow the writer's edits to the includes (kept as versions: they are never pushed). */
export function followExtrasEdits(mirror: Pick<Mirror, 'history' | 'search' | 'transaction'>, spaceId: string, edits: readonly ExtrasEdit[], at: string): void {
  if (edits.length === 0) return;
  mirror.transaction(() => {
    for (const e of edits) {
      mirror.search.indexPage({ spaceId, key: e.key, path: e.path, ...pageDocument(e.text, e.title) });
      mirror.history.record({ spaceId, pageId: e.key, path: e.path, title: e.title, text: e.text, reason: 'local', detail: 'kept here: not pushed', at });
    }
  });
}

/** What the writer changed that no push can carry, one line each. */
export function extrasHeld(record: ExtrasRecord): Held[] {
  const held: Held[] = record.includes
    .filter((i) => i.state === 'edited')
    .map((i) => ({ key: null, path: i.path, title: i.title, reason: 'reusable-content' }));
  if (record.vars?.state === 'edited') held.push({ key: null, path: SPACE_VARIABLES_FILE, reason: 'space-variables' });
  return held;
}

/** A file the writer deleted is written again from main's revision: the cycle asks for it. */
export function extrasNeedTree(record: ExtrasRecord): boolean {
  return record.includes.some((i) => i.state === 'missing' || i.behind) || record.vars?.state === 'missing';
}

/** The name GitBook's Git Sync gives a reusable content's file: its title in lower case, words joined by `-` (dots kept). */
export function includeName(title: string): string {
  const slug = title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}.]+/gu, '-')
    .replace(/^[-.]+|-+$/g, '');
  return slug === '' ? 'untitled' : slug;
}

/** Where a new reusable content goes: the server's Git path when it is one of the includes folder, else its name; never a name taken. */
function pathFor(rc: RemoteTree['reusableContents'][number], taken: Set<string>, rules: NameRules): string {
  // The part of the Git path after `.gitbook/includes/` (the repository may keep the space in a subfolder).
  const git = rc.gitPath?.includes(`${INCLUDES_FOLDER}/`) ? rc.gitPath.split(`${INCLUDES_FOLDER}/`).pop()! : null;
  const fromGit = git && isIncludePath(`${INCLUDES_FOLDER}/${git}`) && !git.startsWith('.') ? git : null;
  const names = nameCandidates(includeName(rc.title), rc.id, MAX_SEGMENT_BYTES, rules, 'file', '.md'); // endless: the last form counts up
  for (let name = fromGit ?? names.next().value!; ; name = names.next().value!) {
    if (taken.has(nameKey(name, rules))) continue;
    taken.add(nameKey(name, rules));
    return `${INCLUDES_FOLDER}/${name}`;
  }
}

/** An include file's text, references in stable form. */
function includeText(title: string, body: string): string {
  return assemblePageFile(gitbookYaml({ title }), undefined, body);
}

/**
 * Brings `.gitbook/includes/` and `.gitbook/vars.yaml` in line with main (`tree`, when the
 * cycle has it), writes again files the writer deleted, and relinks the includes when pages
 * moved (`relink`). Search, history and the record follow.
 */
export async function pullExtras(ctx: ExtrasContext, tree: RemoteTree | null, relink: boolean): Promise<void> {
  const { mirror, spaceId } = ctx;
  const record = readExtras(mirror, spaceId);
  if (!tree && !relink) return;
  if (!tree && record.includes.length === 0) return;
  const written: { rec: IncludeRecord; text: string; pulled: boolean }[] = [];
  const gone: IncludeRecord[] = [];
  const failed: { rec: IncludeRecord; status: number }[] = [];
  let includes = record.includes;
  if (tree) {
    const byId = new Map(record.includes.map((i) => [i.id, i]));
    const taken = new Set(record.includes.map((i) => nameKey(i.path.slice(INCLUDES_FOLDER.length + 1), ctx.names)));
    includes = [];
    for (const rc of tree.reusableContents) {
      const old = byId.get(rc.id);
      const rec: IncludeRecord = old ?? {
        id: rc.id,
        title: rc.title,
        path: pathFor(rc, taken, ctx.names),
        document: null,
        stable: '',
        seen: null,
        state: 'missing',
      };
      if (rec.state === 'edited') {
        includes.push(rec); // held: what the writer has stays
        continue;
      }
      const fetch = !old || old.document !== rc.document;
      const body = fetch ? await fetchBody(ctx, tree.revision.id, rc) : rec.stable;
      if (body instanceof ApiError) {
        // The server failed this one (after the client's retries): the space's pages do not wait for it.
        failed.push({ rec, status: body.status });
        const kept = old && old.seen !== null ? (await writeInclude(ctx, old, false)).rec : rec; // never written: nothing to keep
        includes.push({ ...kept, behind: true });
        continue;
      }
      if (body === null) {
        // Gone between the revision and its document: the file stays as it was (written again if deleted here), asked for again when main moves.
        if (old) includes.push((await writeInclude(ctx, old, false)).rec);
        continue;
      }
      const { behind: _, ...current } = rec;
      const next = { ...current, title: rc.title, document: rc.document, stable: body };
      const outcome = await writeInclude(ctx, next, fetch || old?.title !== rc.title || relink);
      includes.push(outcome.rec);
      if (outcome.text !== null) written.push({ rec: outcome.rec, text: outcome.text, pulled: fetch || old?.title !== rc.title });
    }
    for (const old of record.includes) if (!tree.reusableContents.some((rc) => rc.id === old.id)) gone.push(old);
  } else {
    includes = [];
    for (const rec of record.includes) {
      if (rec.state === 'edited') {
        includes.push(rec);
        continue;
      }
      const outcome = await writeInclude(ctx, rec, true);
      includes.push(outcome.rec);
      if (outcome.text !== null) written.push({ rec: outcome.rec, text: outcome.text, pulled: false });
    }
  }
  for (const old of gone) {
    // Deleted on GitBook: its file goes, unless the writer changed it (then it is theirs, no longer followed).
    if (old.state !== 'edited') await removeFileInside(ctx.spaceDir, old.path).catch(() => false);
  }
  const vars = tree ? await pullVariables(ctx, record.vars, tree.variables) : record.vars;
  const detail = tree ? `revision ${tree.revision.id}` : 'main';
  mirror.transaction(() => {
    for (const w of written) {
      mirror.search.indexPage({ spaceId, key: includeKey(w.rec.id), path: w.rec.path, ...pageDocument(w.text, w.rec.title) });
      if (w.pulled)
        mirror.history.record({
          spaceId,
          pageId: includeKey(w.rec.id),
          path: w.rec.path,
          title: w.rec.title,
          text: w.text,
          reason: 'pulled',
          detail,
          at: ctx.at,
        });
    }
    for (const old of gone) mirror.search.removePage(spaceId, includeKey(old.id));
    for (const f of failed)
      mirror.log.add(
        'retry',
        `GitBook answered ${f.status} for the reusable content “${f.rec.title}”: ${f.rec.path} stays as it was; the next sync asks again`,
        spaceId,
      );
    writeExtras(mirror, spaceId, { includes, vars });
  });
}

/**
 * The reusable content's document as GitBook markdown (references stable); null when the server
 * no longer has it (404); the error when the server failed it (5xx, after the client's retries).
 */
async function fetchBody(ctx: ExtrasContext, revisionId: string, rc: RemoteTree['reusableContents'][number]): Promise<string | null | ApiError> {
  if (rc.document === null) return '';
  let document: unknown;
  try {
    document = await ctx.api.call(
      (c, params) => c.spaces.getReusableContentDocumentInRevisionById(ctx.spaceId, revisionId, rc.id, {}, params),
      ctx.signal ? { signal: ctx.signal } : {},
    );
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    if (err instanceof ApiError && err.status >= 500) return err;
    throw err;
  }
  return documentToMarkdown(document, { pageTitle: (page, space) => ctx.mirror.content.page(space ?? ctx.spaceId, page)?.title ?? null });
}

/**
 * Writes an include's file when it needs it (`want`, or it is gone) and it is as Quire left it;
 * a file already there that Quire did not write is taken as it is when it holds the same text,
 * else it is the writer's (held). Returns the record, and the text written (null: none).
 */
async function writeInclude(ctx: ExtrasContext, rec: IncludeRecord, want: boolean): Promise<{ rec: IncludeRecord; text: string | null }> {
  const text = toLocalLinks(includeText(rec.title, rec.stable), ctx.links.targetsFor(ctx.spaceId, rec.path)).text;
  const hash = sha256(text);
  if (rec.state === 'synced' && rec.seen?.hash === hash) return { rec, text: null };
  if (rec.state === 'synced' && !want) return { rec, text: null };
  const known = rec.seen === null ? null : rec.state === 'synced' ? rec.seen.hash : null;
  if (rec.seen === null || rec.state === 'missing') {
    const there = fileState(ctx.spaceDir, rec.path, null);
    if (there.state !== 'missing') {
      const same = there.text !== null && sha256(there.text) === hash;
      const stat = same ? statOf(ctx.spaceDir, rec.path, hash) : null;
      return { rec: { ...rec, seen: stat ?? rec.seen, state: same ? 'synced' : 'edited' }, text: null };
    }
  }
  const done = await writeFileAtomicStat(ctx.spaceDir, rec.path, text, known !== null ? { ifHolds: known } : { onlyIfAbsent: true });
  if (!done) return { rec: { ...rec, state: 'edited' }, text: null }; // changed under us: the writer's now
  ctx.ownWrites?.note(ctx.spaceId, rec.path, done.stats);
  const seen = { size: done.stats.size, mtimeMs: done.stats.mtimeMs, ino: String(done.stats.ino), hash };
  return { rec: { ...rec, seen, state: 'synced' }, text };
}

function statOf(spaceDir: string, path: string, hash: string): FileSeen | null {
  const st = lstatSync(resolveInside(spaceDir, path), { throwIfNoEntry: false });
  return st ? { size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino), hash } : null;
}

/** `.gitbook/vars.yaml` as main has the variables (none: no file), unless the writer changed it. */
async function pullVariables(ctx: ExtrasContext, rec: ExtrasRecord['vars'], values: Record<string, VariableValue>): Promise<ExtrasRecord['vars']> {
  if (rec?.state === 'edited') return rec;
  const none = Object.keys(values).length === 0;
  if (rec && rec.state === 'synced' && sameVariables(rec.values, values)) return rec;
  if (none) {
    if (rec?.state === 'synced' && rec.seen) {
      const still = fileState(ctx.spaceDir, SPACE_VARIABLES_FILE, rec.seen);
      if (still.state === 'synced') await removeFileInside(ctx.spaceDir, SPACE_VARIABLES_FILE).catch(() => false);
      else if (still.state === 'edited') return { ...rec, state: 'edited' };
    }
    return null;
  }
  const text = variablesYaml(values);
  const hash = sha256(text);
  if (!rec || rec.state === 'missing' || rec.seen === null) {
    const there = fileState(ctx.spaceDir, SPACE_VARIABLES_FILE, null);
    if (there.state !== 'missing') {
      const read = there.text === null ? null : readVariablesFile(there.text);
      const same = read !== null && sameVariables(read, values);
      return { values, seen: same ? statOf(ctx.spaceDir, SPACE_VARIABLES_FILE, sha256(there.text!)) : null, state: same ? 'synced' : 'edited' };
    }
  }
  const known = rec?.state === 'synced' ? (rec.seen?.hash ?? null) : null;
  const done = await writeFileAtomicStat(ctx.spaceDir, SPACE_VARIABLES_FILE, text, known !== null ? { ifHolds: known } : { onlyIfAbsent: true });
  if (!done) return { values: rec?.values ?? values, seen: rec?.seen ?? null, state: 'edited' };
  ctx.ownWrites?.note(ctx.spaceId, SPACE_VARIABLES_FILE, done.stats);
  return { values, seen: { size: done.stats.size, mtimeMs: done.stats.mtimeMs, ino: String(done.stats.ino), hash }, state: 'synced' };
}
