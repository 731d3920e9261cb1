import { join } from 'node:path';
import { dirFlag, has, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import type { CliContext } from '../context';
import { heldFiles, heldMessage, shellWord, stateAction } from '../messages';
import { plural } from '../../../../shared/plural';
import { safeField } from '../terminal-text';
import {
  type ChangeRequestTarget,
  changeCount,
  changeRequestTarget,
  deletedAssets,
  describeDeviation,
  type PathDeviation,
  type PendingEdits,
  pathDeviations,
} from '../../../core/sync';
import { API_URL_META } from '../../../core/api';
import { CorruptMirrorError, describeHolder, folderBusy, hasMirror, isCorruptionError, Mirror } from '../../../core/mirror';
import { readSyncFacts, spaceSelection, type StateReason, type SyncStateName, syncState } from '../../../core/status';
import { SYNC_STATE_WORDS } from '../../../../shared/sync-state';
import { when } from '../../../../shared/when';
import { translationInto } from '../../../core/translations';

/** The change request Quire writes a space's edits into, with the pages it holds. */
export interface HeldEdits {
  id: string;
  number: number | null;
  subject: string;
  /** Files of the pages it holds (as they were pushed; deleted pages by their last path). */
  pages: { path: string | null; deleted: boolean }[];
}

export interface SpaceStatus {
  spaceId: string;
  title: string;
  folder: string | null;
  state: SyncStateName;
  reasons: StateReason[];
  /** The last cycle of this space that reached the server and completed (ISO), or null. */
  lastReachedServerAt: string | null;
  /** Same as lastReachedServerAt (kept for scripts written before it). */
  lastSyncAt: string | null;
  lastError: string | null;
  /** Each edit once: a renamed or moved page file is `moved`, never also `modified`; new images are `added`. */
  pendingEdits: PendingEdits;
  conflicts: { path: string; kind: string; remotePath: string | null }[];
  /** Open change requests of the space: those the last review refresh saw, and the one holding your edits. */
  openChangeRequests: number;
  /** The change request Quire writes this space's edits into, while it is open, with its pages. */
  changeRequest: (HeldEdits & { pageCount: number }) | null;
  /**
   * Which change request receives this space's edits: `open` (#number), `new` (the next push opens
   * the one `quire cr new` asked for), `none` (the next push opens one); `chosen` when the user chose it;
   * `setAside`: change requests of the space the pushes went to before (`quire cr use` brings one back).
   */
  target: Omit<ChangeRequestTarget, 'spaceId'>;
  /** Set when sync stopped before deleting most of the space (the mass-delete fail-safe): what to do. */
  held: string | null;
  /** The same hold, counted: pages it would delete on the server (localDeletes) and here (remoteDeletes), of how many. */
  hold: { localDeletes: number; remoteDeletes: number; pages: number } | null;
  /** Changes the server refused: not sent again until the file changes. */
  refused: { path: string | null; message: string }[];
  /** Assets deleted here: GitBook keeps them (its API cannot delete a file); usedBy lists the pages still showing one. */
  deletedAssets: { path: string; usedBy: string[] }[];
  /**
   * Pages not at the path GitBook's Git Sync gives them, because the file system here cannot hold
   * that name (or a file is in the way), or because the writer put the file there (`kept`): where
   * each is, where GitBook puts it, and why (`below`: pages under it that follow it); a kept one
   * with the command that moves it to GitBook's path (`action`).
   */
  deviations: (PathDeviation & { action?: string })[];
  /** The translation that writes this space (as last listed): its next run replaces edits made here. Null when none does. */
  translation: {
    id: string;
    sourceSpaceId: string;
    sourceTitle: string | null;
    sourceLanguage: string;
    language: string;
    status: string;
    lastRunAt: string | null;
  } | null;
}

/**
 * `quire status --dir DIR [--json]`: the folder's sync state (core/status, the same the app shows)
 * with its reasons and what to do about each, then per space: last sync, pending edits,
 * conflicts, the change request holding your edits, what was refused or stopped.
 */
export async function status(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const dir = dirFlag(args);
  // Status only reads: a folder Quire never synced gets an empty mirror in memory, not one on disk.
  const mirror = hasMirror(dir) ? ctx.openMirror(dir) : Mirror.openToPlan(dir);
  try {
    return await report(mirror);
  } catch (err) {
    // Read-only: damage is reported, and left for the next sync to set aside.
    if (isCorruptionError(err)) throw new CorruptMirrorError(dir, err);
    throw err;
  } finally {
    mirror.close();
  }

  async function report(mirror: Mirror): Promise<number> {
    const facts = await readSyncFacts(mirror, dir);
    // A cycle running now holds the folder's lock (another `quire sync`, the app, `quire ui`).
    const busy = folderBusy(dir);
    const state = syncState(facts, { syncing: busy !== null, ...(busy ? { syncingBy: describeHolder(busy.holder) } : {}) });
    const apiUrl = mirror.catalog.getMeta(API_URL_META) ?? null;
    const selection = spaceSelection(mirror);
    const spaces: SpaceStatus[] = facts.spaces.map((f, i) => {
      const s = state.spaces[i]!;
      const row = mirror.catalog.space(f.spaceId)!;
      const cr = mirror.outbox.changeRequest(f.spaceId);
      // A space whose state names a path Quire may not use (facts' `unsafe`): nothing more is read of it.
      const trusted = f.unsafe === null;
      const held = trusted ? heldEditsOf(mirror, f.spaceId, cr) : null;
      const open = new Set(
        mirror.reviewViews
          .changeRequests({ spaceId: f.spaceId, statuses: ['open'] })
          .map((c) => c.id)
          .concat(held ? [held.id] : []),
      );
      return {
        spaceId: f.spaceId,
        title: f.title,
        folder: f.folder,
        state: s.state,
        reasons: s.reasons,
        lastReachedServerAt: s.lastReachedServerAt,
        lastSyncAt: s.lastReachedServerAt,
        lastError: row.lastError,
        pendingEdits: f.pendingEdits,
        conflicts: f.conflicts,
        openChangeRequests: open.size,
        changeRequest: held ? { ...held, pageCount: held.pages.length } : null,
        target: (({ spaceId: _, ...rest }) => rest)(changeRequestTarget(mirror, f.spaceId)),
        held: f.hold ? heldMessage(f.hold, f, dir, f.hold.deletes) : null,
        hold: f.hold,
        refused: f.refused,
        deletedAssets: trusted && f.folder ? deletedAssets(mirror, f.spaceId, join(dir, f.folder)).map((a) => ({ path: a.path, usedBy: a.usedBy })) : [],
        deviations: trusted && f.folder ? pathDeviations(mirror, f.spaceId).map((d) => withAction(d, dir, f.folder!)) : [],
        translation: translationOf(mirror, f.spaceId),
      };
    });
    if (has(args, 'json')) {
      io.stdout(
        JSON.stringify(
          {
            state: state.state,
            reasons: state.reasons,
            lastReachedServerAt: state.lastReachedServerAt,
            offlineSince: state.offlineSince,
            apiUrl,
            selection: { mode: selection, spaceIds: facts.spaces.map((s) => s.spaceId) },
            spaces,
          },
          null,
          2,
        ),
      );
      return EXIT.ok;
    }
    const lines = [`State: ${SYNC_STATE_WORDS[state.state]}${stateDetail(state)}`];
    // A folder that never synced is told the address its user signed in to (else GitBook's): its commands run as printed.
    const syncWith = apiUrl ?? ctx.givenApiUrl(dir) ?? ctx.given.signedIn?.() ?? DEFAULT_API;
    for (const r of state.reasons) {
      lines.push(`  - ${safeField(r.message)}`);
      for (const d of r.details ?? []) lines.push(`      ${safeField(d)}`);
      const space = facts.spaces.find((s) => s.spaceId === r.spaceId);
      const folder = space?.folder ?? null;
      const todo = stateAction(r, { dir, apiUrl: syncWith, folder, held: heldFiles(space?.hold?.deletes ?? [], folder) });
      if (todo) lines.push(`    to do: ${todo}`);
    }
    if (apiUrl) lines.push(`API: ${safeField(apiUrl)} (remembered by this folder; its token is looked up for this address)`);
    lines.push(selectionLine(selection, spaces));
    io.stdout(lines.join('\n'));
    for (const s of spaces) io.stdout(formatSpace(s, dir));
    return EXIT.ok;
  }
}

function stateDetail({ state, lastReachedServerAt, editsWaiting, offlineSince }: ReturnType<typeof syncState>): string {
  const last = lastReachedServerAt ? ` — last sync ${when(lastReachedServerAt)}` : '';
  if (state === 'paused') return ` — ${plural(editsWaiting, 'edit')} waiting${last}`;
  if (state === 'offline' && offlineSince) return ` — since ${when(offlineSince)}, last sync ${lastReachedServerAt ? when(lastReachedServerAt) : 'never'}`;
  return last;
}

const DEFAULT_API = 'https://api.gitbook.com';

function selectionLine(selection: 'all' | 'listed', spaces: SpaceStatus[]): string {
  if (spaces.length === 0) return 'Spaces: none chosen yet (the first sync takes every space the token reaches; --space with a space id keeps to some).';
  const names = spaces.map((s) => `${safeField(s.title)} (${safeField(s.spaceId)})`).join(', ');
  return selection === 'listed'
    ? `Spaces: ${names} — remembered from --space (or the app); sync keeps to them, --all-spaces or other --space values change that.`
    : `Spaces: ${names} — every space the token reaches (--space with a space id keeps sync to some).`;
}

function translationOf(mirror: Pick<Mirror, 'catalog' | 'translations'>, spaceId: string): SpaceStatus['translation'] {
  const t = translationInto(mirror, spaceId);
  if (!t) return null;
  const { id, source, language, status, lastRunAt } = t;
  return { id, sourceSpaceId: source.spaceId, sourceTitle: source.title, sourceLanguage: source.language, language, status, lastRunAt };
}

/** The change request holding the space's edits while it is open, and its pages. */
function heldEditsOf(mirror: Pick<Mirror, 'outbox'>, spaceId: string, cr: ReturnType<Mirror['outbox']['changeRequest']>): HeldEdits | null {
  if (!cr?.changeRequestId) return null;
  const pages = [...mirror.outbox.pushedPages(spaceId).values()]
    .map((p) => ({ path: p.path, deleted: p.deleted }))
    .sort((a, b) => (a.path ?? '').localeCompare(b.path ?? ''));
  return { id: cr.changeRequestId, number: cr.number, subject: cr.subject, pages };
}

const SHOWN_PAGES = 10;

/** Which change request receives the space's edits, in words. */
function targetLine(s: SpaceStatus): string {
  const t = s.target;
  const chosen = t.chosen ? ' (chosen with quire cr)' : '';
  if (t.state === 'open' || t.state === 'creating') {
    return `  your edits go into change request #${t.number ?? '?'} “${safeField(t.subject ?? '')}” (${plural(t.pages, 'page')} so far)${chosen}`;
  }
  if (t.state === 'new')
    return `  your next push opens a new change request${t.subject ? ` “${safeField(t.subject)}”` : ', its subject saying what it holds'}${chosen}`;
  return '  your next push opens a change request, its subject saying what it holds';
}

/** A page kept where the writer put it, with the command that moves it to GitBook's path (its file, or for a folder its page id). */
function withAction(d: PathDeviation, dir: string, folder: string): PathDeviation & { action?: string } {
  if (d.reason !== 'kept') return d;
  const page = d.path.endsWith('/') ? d.pageId : `${folder}/${d.path}`;
  return { ...d, action: `quire sync --dir ${shellWord(dir)} --once --gitbook-path ${shellWord(page)}` };
}

function formatSpace(s: SpaceStatus, dir: string): string {
  const edits = changeCount(s.pendingEdits);
  const cr = s.changeRequest;
  const crPages = cr
    ? cr.pages
        .slice(0, SHOWN_PAGES)
        .map((p) => `    ${p.deleted ? 'deleted  ' : ''}${p.path === null ? '(a page without a file)' : safeField(p.path)}`)
        .concat(cr.pages.length > SHOWN_PAGES ? [`    and ${cr.pages.length - SHOWN_PAGES} more`] : [])
    : [];
  const lines = [
    `${safeField(s.title)} (${safeField(s.spaceId)}) in ${s.folder === null ? '(not yet pulled)' : safeField(s.folder)}: ${SYNC_STATE_WORDS[s.state]}`,
    `  last sync: ${s.lastReachedServerAt ? when(s.lastReachedServerAt) : 'never'}${s.lastError ? ` — last error: ${safeField(s.lastError)}` : ''}`,
    ...(s.translation
      ? [
          `  translated from ${safeField(s.translation.sourceTitle ?? s.translation.sourceSpaceId)} (${safeField(s.translation.sourceLanguage)} → ${safeField(s.translation.language)}): the next translation run replaces the edits made here, pushed or not`,
        ]
      : []),
    `  pending local edits: ${edits}`,
    ...s.pendingEdits.modified.map((p) => `    modified ${safeField(p)}`),
    ...s.pendingEdits.moved.map((m) => `    moved    ${safeField(m.to)} (was ${safeField(m.from)})`),
    ...s.pendingEdits.added.map((p) => `    added    ${safeField(p)}`),
    ...s.pendingEdits.deleted.map((p) => `    deleted  ${safeField(p)}`),
    `  conflicts: ${s.conflicts.length}`,
    ...s.conflicts.map((c) => `    ${safeField(c.path)}: ${c.kind}${c.remotePath ? ` (remote version in ${safeField(c.remotePath)})` : ''}`),
    `  open change requests: ${s.openChangeRequests}${cr ? ` (#${cr.number ?? '?'} holds your edits)` : ''}`,
    targetLine(s),
    ...s.target.setAside.map(
      (p) =>
        `    set aside: #${p.number ?? '?'} “${safeField(p.subject)}” (${plural(p.pages, 'page')})${p.number === null ? '' : ` — \`quire cr use ${p.number} --space ${safeField(s.spaceId)} --dir ${shellWord(dir)}\` to go on with it`}`,
    ),
    ...(cr ? [`  your edits in change request #${cr.number ?? '?'} (${plural(cr.pageCount, 'page')}):`, ...crPages] : []),
    ...s.refused.map((r) => `  refused by the server: ${r.path === null ? '(asset)' : safeField(r.path)}: ${safeField(r.message)}`),
    ...s.deletedAssets.map((a) =>
      a.usedBy.length > 0
        ? `  ${safeField(a.path)}: deleted here but still shown by ${a.usedBy.map(safeField).join(', ')}: restore it or remove it from those pages`
        : `  ${safeField(a.path)}: deleted here; it stays on GitBook (the API cannot delete files), no page uses it`,
    ),
    ...(s.deviations.length > 0 ? [`  paths unlike GitBook's (GitBook's Git Sync writes them elsewhere): ${plural(s.deviations.length, 'page')}`] : []),
    ...s.deviations.map(
      (d) =>
        `    ${safeField(d.path)} — GitBook: ${safeField(d.gitbookPath)} (“${safeField(d.title)}”${d.below > 0 ? ` and ${plural(d.below, 'page')} below it` : ''}): ${describeDeviation(d.reason)}${d.action ? `; to move it there: \`${d.action}\`` : ''}`,
    ),
    ...(s.held ? [`  STOPPED: ${s.held}`] : []),
  ];
  return lines.join('\n');
}
