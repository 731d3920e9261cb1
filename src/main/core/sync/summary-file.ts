/**
 * SUMMARY.md, written from the folder's tree after a cycle that changed it (places, names,
 * titles), with the writer's lines it could not take kept as written, and recorded as written
 * so the next scan sees only the writer's own edits.
 */
import { lstatSync, promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { type PageKind, type renderSummary, summaryLines } from '../content';
import type { Mirror, OutlineRow } from '../mirror';
import { isSummaryHold } from './hold';
import type { OwnWrites } from './own-writes';
import type { SummaryKept } from './plan';
import { hashedOnTheWay, sha256, utf8Blocks } from './hash';
import { SUMMARY_FILE } from '../naming';
import { MAX_SUMMARY_BYTES, readText, recordSummary } from './scan';
import { resolveInside, writeFileAtomicStat } from './safe-fs';

type SummaryPage = Parameters<typeof renderSummary>[0][number];
type SummaryPlacement = Parameters<typeof renderSummary>[1];

/**
 * The folder's tree as SUMMARY.md lists it (links' hrefs through `linkHref`), and where each
 * entry's file is; with the writer's held lines (`kept`) where the writer put them. Built in one
 * pass over the tree's rows: a large space has tens of thousands.
 */
function summaryTree(mirror: Pick<Mirror, 'folder'>, spaceId: string, kept: SummaryKept | null): { pages: SummaryPage[]; placement: SummaryPlacement } {
  const rows = new Map<string, OutlineRow>();
  const children = new Map<string | null, string[]>();
  const sorted = mirror.folder.outline(spaceId).sort((a, b) => a.position - b.position || (a.key < b.key ? -1 : 1));
  for (const n of sorted) {
    rows.set(n.key, n);
    const siblings = children.get(n.parentKey);
    if (siblings) siblings.push(n.key);
    else children.set(n.parentKey, [n.key]);
  }
  const keptById = new Map((kept?.added ?? []).map((k) => [k.id, k]));
  if (kept) placeKept(kept, rows, children);
  const placed = new Map<string, { kind: PageKind; file: string | null }>();
  const build = (ids: readonly string[], depth: number): SummaryPage[] =>
    ids.flatMap((id): SummaryPage[] => {
      const k = keptById.get(id);
      const n = rows.get(id);
      if (!k && !n) return [];
      const kids = depth < 256 ? build(k ? k.children : (children.get(id) ?? []), depth + 1) : [];
      const pages = kids.length > 0 ? { pages: kids } : {};
      if (k) {
        placed.set(id, { kind: k.kind === 'page' ? 'document' : k.kind, file: k.path });
        return [{ id, title: k.title, ...(k.href !== null ? { href: k.href } : {}), ...pages }];
      }
      placed.set(id, { kind: n!.kind, file: n!.path });
      const href = kept?.hrefs.get(id) ?? n!.href;
      return [{ id, title: kept?.titles.get(id) ?? n!.title, ...(href !== null ? { href } : {}), ...pages }];
    });
  const pages = build(children.get(null) ?? [], 0);
  return { pages, placement: { pages: placed } };
}

/**
 * The writer's held lines into the tree's lists: groups and links no longer listed taken out
 * (unless something is still under them), pages listed under a kept line taken from where they
 * are, and kept lines listed where the writer put them, right after the same entry.
 */
function placeKept(kept: SummaryKept, rows: ReadonlyMap<string, OutlineRow>, children: Map<string | null, string[]>): void {
  const takeOut = (id: string): void => {
    const parent = rows.get(id)?.parentKey ?? null;
    const list = children.get(parent);
    const at = list?.indexOf(id) ?? -1;
    if (at >= 0) list!.splice(at, 1);
  };
  for (const id of kept.hidden) if ((children.get(id) ?? []).length === 0) takeOut(id);
  const keptIds = new Set(kept.added.map((k) => k.id));
  for (const k of kept.added) for (const child of k.children) if (!keptIds.has(child)) takeOut(child);
  for (const k of kept.added) {
    if (k.parent !== null && keptIds.has(k.parent)) continue; // listed among its kept parent's children
    if (k.parent !== null && !rows.has(k.parent)) continue; // under a page gone meanwhile: its line goes too
    const list = children.get(k.parent) ?? [];
    const after = k.after === null ? -1 : list.indexOf(k.after);
    list.splice(k.after !== null && after < 0 ? list.length : after + 1, 0, k.id);
    children.set(k.parent, list);
  }
}

/**
 * Writes SUMMARY.md when it says something else than the tree; records what it holds either way.
 * A SUMMARY.md that is not text Quire can read (not UTF-8, NUL bytes, a symbolic link, not a
 * file) is the writer's and is left alone: never written over, never recorded (the scan
 * reports it until it is fixed).
 *
 * The text is encoded a block at a time and never held whole: a space of 20,000 pages makes
 * ~7 MB of it (see utf8Blocks). Beside a SUMMARY.md already there, it is made twice: once to
 * compare, once to write.
 */
export async function writeSummaryFile(
  mirror: Pick<Mirror, 'catalog' | 'folder'>,
  spaceId: string,
  spaceDir: string,
  options: SummaryWrite = {},
): Promise<void> {
  const current = currentText(spaceDir);
  if (current === undefined) return;
  // Saved by the writer while this cycle ran: theirs, read by the next cycle (the watcher starts it), never written over.
  if (current !== null && options.expected !== undefined && !asExpected(spaceDir, options.expected)) return;
  const { pages, placement } = summaryTree(mirror, spaceId, options.kept ?? null);
  const bytes = () => utf8Blocks(withNewlines(summaryLines(pages, placement)));
  if (current !== null) {
    const hash = sha256(bytes());
    if (sha256(utf8Blocks([current])) === hash) {
      const st = await fsp.stat(`${spaceDir}/${SUMMARY_FILE}`);
      recordSummary(mirror, spaceId, { size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino), hash });
      return;
    }
  }
  const hashed = hashedOnTheWay(bytes());
  const st = (await writeFileAtomicStat(spaceDir, SUMMARY_FILE, hashed.blocks))!.stats;
  options.ownWrites?.note(spaceId, SUMMARY_FILE, st);
  recordSummary(mirror, spaceId, { size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino), hash: hashed.digest() });
}

export interface SummaryWrite {
  /** The writer's held lines, kept where the writer put them. */
  kept?: SummaryKept | null;
  /** SUMMARY.md as this cycle saw it (null: not there); another is the writer's newer save. Undefined: not checked. */
  expected?: { size: number; mtimeMs: number; ino: string } | null;
  /** Told of the write, so continuous sync does not take it for the writer's save. */
  ownWrites?: OwnWrites;
}

/** SUMMARY.md is (still) the file this cycle saw. */
function asExpected(spaceDir: string, expected: NonNullable<SummaryWrite['expected']> | null): boolean {
  if (expected === null) return false;
  const st = lstatSync(join(spaceDir, SUMMARY_FILE), { throwIfNoEntry: false });
  return st !== undefined && st.size === expected.size && st.mtimeMs === expected.mtimeMs && String(st.ino) === expected.ino;
}

/** The last cycle held lines of the space's SUMMARY.md: they stay said until settled, so it is read at every cycle. */
export function summaryHeld(mirror: Pick<Mirror, 'outbox'>, spaceId: string): boolean {
  return mirror.outbox.attention(spaceId).some((a) => a.path === SUMMARY_FILE && isSummaryHold(a.reason));
}

function* withNewlines(lines: Iterable<string>): Generator<string> {
  for (const line of lines) yield `${line}\n`;
}

/** SUMMARY.md's text now: null when there is none, undefined when it is there but not text Quire can read. */
function currentText(spaceDir: string): string | null | undefined {
  let st: ReturnType<typeof lstatSync> | undefined;
  try {
    // (A symbolic link leading out of the folder is refused here: left alone too.)
    st = lstatSync(resolveInside(spaceDir, SUMMARY_FILE), { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!st) return null;
  if (!st.isFile()) return undefined;
  const text = readText(join(spaceDir, SUMMARY_FILE), st, MAX_SUMMARY_BYTES);
  return typeof text === 'string' ? text : undefined;
}
