/**
 * The mass-delete fail-safe's hold, said plainly: what the cycle would have deleted. Each host
 * adds what to do in its own terms (the CLI: \`--allow-deletes\`; the app: its buttons).
 */
import type { Mirror } from '../mirror';
import { type Held, isMostOfTheSpace, type MassDeleteHold, type UnreadableReason } from './plan';

/** A page a mass-delete stop holds, by name. */
export interface HeldDelete {
  pageId: string;
  /** Its file, relative to the space folder (where it was, for a file deleted here); null when no record knows it. */
  path: string | null;
  title: string;
  /** `server`: its file is gone here, and the sync would delete the page on the server; `here`: main deleted it, and the sync would delete its file. */
  on: 'server' | 'here';
}

/** The pages the space's mass-delete stop holds, named by file and title (none without a stop). */
export function heldDeletes(mirror: Pick<Mirror, 'content' | 'folder' | 'history' | 'outbox'>, spaceId: string): HeldDelete[] {
  const hold = mirror.outbox.hold(spaceId);
  if (!hold) return [];
  const named = (pageId: string, on: HeldDelete['on']): HeldDelete => {
    const node = mirror.folder.node(spaceId, pageId);
    const page = mirror.content.page(spaceId, pageId);
    const kept = mirror.history.page(spaceId, pageId);
    return { pageId, path: node?.path ?? page?.path ?? kept?.path ?? null, title: node?.title ?? page?.title ?? kept?.title ?? '', on };
  };
  return [...hold.deletes.server.map((id) => named(id, 'server')), ...hold.deletes.here.map((id) => named(id, 'here'))].sort((a, b) =>
    (a.path ?? '').localeCompare(b.path ?? ''),
  );
}

/** A page by its file and title, as reasons name it: `faq.md (“FAQ”)` (by its title, or its id, when no file is known). */
export function describePageFile(d: Pick<HeldDelete, 'path' | 'title' | 'pageId'>): string {
  const title = d.title ? `“${d.title}”` : '';
  if (d.path === null) return title || `page ${d.pageId}`;
  return title ? `${d.path} (${title})` : d.path;
}

/**
 * What the fail-safe stopped, e.g. "Stopped before deleting most of “Guide”: this sync would
 * delete 5 of its 8 pages on the server (…)." A stop an earlier cycle recorded, now over fewer
 * pages (some files are back, or a conflict took one), is "still stopped".
 */
export function describeMassDelete(hold: Omit<MassDeleteHold, 'deletes'>, space: { title: string; folder: string | null }): string {
  const parts = [
    hold.localDeletes ? `${hold.localDeletes} of its ${hold.pages} pages on the server (their files are gone from ${space.folder ?? 'its folder'})` : '',
    hold.remoteDeletes ? `${hold.remoteDeletes} of its ${hold.pages} page files here (deleted on the server)` : '',
  ].filter(Boolean);
  const stopped = isMostOfTheSpace(hold) ? `Stopped before deleting most of “${space.title}”` : `Still stopped before deleting pages of “${space.title}”`;
  return `${stopped}: this sync would delete ${parts.join(' and ')}.`;
}

/** A change the API cannot carry, and what to do instead, e.g. "SUMMARY.md line 12: “Tutorials” is a new group; …". */
/** The reasons a SUMMARY.md line is held for (its line stays in SUMMARY.md until settled). */
const SUMMARY_HOLDS: ReadonlySet<string> = new Set(['new-group', 'new-link', 'link-target', 'group-removed', 'link-removed', 'page-title', 'page-missing']);

export function isSummaryHold(reason: string): boolean {
  return SUMMARY_HOLDS.has(reason);
}

export function describeNotPushed(h: Held): string {
  const where = h.line !== undefined ? `${h.path} line ${h.line}` : h.path;
  const title = `“${h.title ?? ''}”`;
  switch (h.reason) {
    case 'new-group':
      return `${where}: ${title} is a new group; the API cannot create groups: create it on GitBook, then sync again.`;
    case 'new-link':
      return `${where}: ${title} is a new link; the API cannot create links: add it on GitBook, then sync again.`;
    case 'link-target':
      return `${where}: the link ${title} points elsewhere now; the API cannot change where a link points: change it on GitBook.`;
    case 'group-removed':
      return `${where}: the group ${title} is no longer listed; SUMMARY.md never deletes: delete the group on GitBook if you meant to.`;
    case 'link-removed':
      return `${where}: the link ${title} is no longer listed; SUMMARY.md never deletes: delete the link on GitBook if you meant to.`;
    case 'page-title': {
      const file = h.file ? `${h.file.path}, which says “${h.file.title}”` : "its page's file, whose heading says otherwise";
      return `${where}: ${title} is not the title of ${file}: a page's title is its file's \`# heading\` (or its frontmatter \`title:\`); change the heading to retitle the page, or the line to keep its title.`;
    }
    case 'page-missing':
      return `${where}: ${h.file?.path ?? 'its file'} is not in the folder: create the file (the page goes where this line puts it), or remove the line.`;
    case 'asset-in-use':
      return `${where} was deleted here, but ${h.title ?? 'a page'} still shows it: the image stays on GitBook; restore the file or remove it from the page.`;
    case 'unsafe':
      return `${where} is not pushed: ${h.title ?? 'GitBook would damage it'}. Fix the file; the next sync pushes it.`;
    case 'other-change-request':
      return `${where} is not pushed: ${h.title ?? 'it exists only in another change request'}.`;
    case 'reusable-content':
      return `${where}: reusable content${h.title ? ` ${title}` : ''} can only be changed in GitBook's editor, so your edit stays here and is not pushed; delete the file to take GitBook's version back.`;
    case 'space-variables':
      return `${where}: the space's variables can only be changed in GitBook's editor, so your edit stays here and is not pushed; delete the file to take GitBook's version back.`;
    case 'page-variables':
      return `${where} is not pushed: its page variables (vars:) can only be changed in GitBook's editor; put vars: back as it was to push the rest.`;
    default:
      return `${where}: not pushed (${h.reason}).`;
  }
}

const UNREADABLE: Record<UnreadableReason, string> = {
  symlink: 'it is a symbolic link (Quire never follows one out of the folder); replace it with the file itself',
  'not-a-file': 'it is not a regular file (a device, a pipe or a socket); remove it or put the page file back',
  'no-permission': 'Quire may not read it; give your user read permission',
  'bad-name': 'its name is not valid UTF-8; rename it',
  'same-name': 'another file beside it spells the same name in another Unicode form (composed and decomposed accents, NFC and NFD); keep one of the two',
  'not-utf8': 'its text is not UTF-8 (Latin-1 or UTF-16, say); save it as UTF-8',
  binary: 'it holds NUL bytes, like a binary file; save it as text',
  'too-large': 'it is over 1 MiB, more than a GitBook page holds; split it into several pages',
  unparseable: 'its frontmatter does not parse; fix the YAML between the --- lines',
};

/** A reason a path is left alone (describeUnreadable), as against a change not pushed (describeNotPushed). */
export function isUnreadableReason(reason: string): reason is UnreadableReason {
  return Object.hasOwn(UNREADABLE, reason);
}

/** A path Quire leaves alone, and what to do, e.g. "guide/faq.md is left alone: it is a symbolic link (…)." */
export function describeUnreadable(u: { path: string; reason: UnreadableReason }): string {
  return `${u.path} is left alone (nothing is pushed or deleted for it): ${UNREADABLE[u.reason]}.`;
}

/** A space folder gone from its place. */
export function describeMissingFolder(space: { title: string; folder: string }): string {
  return `The folder of “${space.title}” (${space.folder}) is missing, so it was not synced and nothing was deleted, here or on the server. Put the folder back (or reconnect its drive) and sync again.`;
}
