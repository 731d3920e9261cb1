/**
 * SUMMARY.md, written from the folder's tree after a cycle that changed it (places, names,
 * titles), and recorded as written so the next scan sees only the writer's own edits.
 */
import { lstatSync, promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { type PageKind, type renderSummary, summaryLines } from '../content';
import type { Mirror, OutlineRow } from '../mirror';
import { hashedOnTheWay, sha256, utf8Blocks } from './hash';
import { SUMMARY_FILE } from './plan/layout';
import { MAX_SUMMARY_BYTES, readText, recordSummary } from './scan';
import { resolveInside, writeFileAtomicStat } from './safe-fs';

type SummaryPage = Parameters<typeof renderSummary>[0][number];
type SummaryPlacement = Parameters<typeof renderSummary>[1];

/**
 * The folder's tree as SUMMARY.md lists it (links' hrefs through `linkHref`), and where each
 * entry's file is. Built in one pass over the tree's rows: a large space has tens of thousands.
 */
function summaryTree(mirror: Mirror, spaceId: string): { pages: SummaryPage[]; placement: SummaryPlacement } {
  const children = new Map<string | null, OutlineRow[]>();
  for (const n of mirror.folder.outline(spaceId)) {
    const siblings = children.get(n.parentKey);
    if (siblings) siblings.push(n);
    else children.set(n.parentKey, [n]);
  }
  const placed = new Map<string, { kind: PageKind; file: string | null }>();
  const build = (parent: string | null, depth: number): SummaryPage[] =>
    (children.get(parent) ?? [])
      .sort((a, b) => a.position - b.position || (a.key < b.key ? -1 : 1))
      .map((n) => {
        placed.set(n.key, { kind: n.kind, file: n.path });
        const kids = depth < 256 ? build(n.key, depth + 1) : [];
        return { id: n.key, title: n.title, ...(n.href !== null ? { href: n.href } : {}), ...(kids.length > 0 ? { pages: kids } : {}) };
      });
  const pages = build(null, 0);
  return { pages, placement: { pages: placed } };
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
export async function writeSummaryFile(mirror: Mirror, spaceId: string, spaceDir: string): Promise<void> {
  const current = currentText(spaceDir);
  if (current === undefined) return;
  const { pages, placement } = summaryTree(mirror, spaceId);
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
  recordSummary(mirror, spaceId, { size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino), hash: hashed.digest() });
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
