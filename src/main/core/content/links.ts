/**
 * The mapping between the links the server stores and the links the sync folder holds, for
 * one page. Pure: everything it needs to know about files comes through `LinkTargets`.
 *
 * Pull (`toLocalLinks`): each stable reference to a page or file Quire has on disk becomes a
 * relative path from the page's file. `written` records, for each local href it wrote, the
 * exact stable href it stands for, so push restores the server's text byte for byte even
 * where two stable forms lead to one file (`/pages/p` and `/spaces/<own>/pages/p`), where the
 * page also holds a relative link of its own, or after the target moved on disk. When two
 * stable hrefs would get the same local href, the later one is written `./x.md` (then
 * `././x.md`, …): all of them resolve to the same file.
 *
 * Push (`toStableLinks`): a local href `written` knows goes back to exactly its stable href;
 * any other relative link that resolves to a page or file `lookup` knows becomes its stable
 * reference; anything else is sent as written.
 *
 * An include's `/reusable-content/<id>` maps the same way to the reusable content's file in
 * `.gitbook/includes/` (`includeFile`), and back.
 *
 * Only references whose text is written the canonical way (see references.ts `hrefText`) are
 * rewritten on pull: an odd spelling such as `&#x2F;pages/p` stays as it is, so that what push
 * writes back is always the original text.
 */
import {
  anchorAsWritten,
  findReferences,
  formatIncludeRef,
  formatNewRef,
  formatStableRef,
  hrefText,
  parseIncludeRef,
  parseStableRef,
  type Reference,
  relativeHref,
  resolveRelativeHref,
  rewriteReferences,
  type StableRef,
} from './references';

export interface LinkTargets {
  /** The space of the page being converted. */
  spaceId: string;
  /** Its file, relative to the sync root: `<space folder>/<path>`. */
  file: string;
  /** Where a page's file is (root-relative), null if not mirrored. */
  pageFile(spaceId: string, pageId: string): string | null;
  /** Where a file (asset) is, null if not mirrored. */
  assetFile(spaceId: string, fileId: string): string | null;
  /** Where a reusable content's file (`.gitbook/includes/…`) is (root-relative), null if not pulled. */
  includeFile?(spaceId: string, id: string): string | null;
  /** What a local file is (root-relative path, NFC). */
  lookup(rootRelativePath: string): { kind: 'page' | 'file' | 'include'; spaceId: string; id: string } | null;
}

/** Written the usual way, but maybe for its anchor's spelling (GitBook writes `#dag\_cbor`: rewrites keep it, see references.ts). */
function isCanonical(markdown: string, ref: Reference): boolean {
  const anchor = anchorAsWritten(markdown, ref);
  const { text, delimiter } = hrefText(ref, anchor === null ? ref.href : ref.href.slice(0, ref.href.indexOf('#')));
  return delimiter === ref.delimiter && text === markdown.slice(ref.start, ref.end - (anchor?.length ?? 0));
}

/** The local file and anchor a stable reference (or an include's) points at, or null when it is not on disk. */
function localTarget(
  stable: StableRef | { kind: 'include'; spaceId: string | null; id: string },
  t: LinkTargets,
): { file: string; anchor: string | null } | null {
  const spaceId = stable.spaceId ?? t.spaceId;
  if (stable.kind === 'include') {
    const file = t.includeFile?.(spaceId, stable.id) ?? null;
    return file === null ? null : { file, anchor: null };
  }
  if (stable.kind === 'file') {
    const file = t.assetFile(spaceId, stable.fileId);
    return file === null ? null : { file, anchor: null };
  }
  const file = t.pageFile(spaceId, stable.pageId);
  return file === null ? null : { file, anchor: stable.anchor };
}

/** `refs`: the text's references, when the caller has found them already. */
export function toLocalLinks(
  stable: string,
  t: LinkTargets,
  refs: readonly Reference[] = findReferences(stable),
): { text: string; written: Record<string, string> } {
  const targets = new Map<string, { file: string; anchor: string | null }>();
  const mapped = new Set<number>();
  const taken = new Set<string>();
  for (const ref of refs) {
    const include = ref.kind === 'block' && ref.name === 'include' ? parseIncludeRef(ref.href) : null;
    const parsed = !isCanonical(stable, ref) ? null : include ? { kind: 'include' as const, ...include } : parseStableRef(ref.href);
    const target = parsed && (targets.get(ref.href) ?? localTarget(parsed, t));
    if (target) {
      targets.set(ref.href, target);
      mapped.add(ref.start);
    } else if (resolveRelativeHref(t.file, ref.href)) {
      // A relative href the server stores stands for itself; no stable href may take its text.
      taken.add(ref.href);
    }
  }

  const written: Record<string, string> = Object.create(null);
  for (const href of taken) written[href] = href;
  const localOf = new Map<string, string>();
  for (const [stableHref, target] of targets) {
    // The anchor as the server has it (`#a/#b` keeps its second `#`, as GitBook's export writes it).
    let local = gitbookSpelling(relativeHref(t.file, target.file) + (target.anchor === null ? '' : `#${target.anchor}`));
    while (taken.has(local)) local = `./${local}`;
    taken.add(local);
    localOf.set(stableHref, local);
    written[local] = stableHref;
  }
  const text = rewriteReferences(stable, (ref) => (mapped.has(ref.start) ? localOf.get(ref.href)! : null), refs);
  return { text, written };
}

/**
 * A relative href to a page spelled as GitBook's Git Sync spells it: a page whose file is a
 * folder's `README.md` (a page with children, the space's first page) by its folder, `dir/`
 * (`./` and `../` for the folder of the link's own file and the one above). Push reads both
 * spellings alike.
 */
function gitbookSpelling(href: string): string {
  const hash = href.indexOf('#');
  const path = hash < 0 ? href : href.slice(0, hash);
  if (path !== 'README.md' && !path.endsWith('/README.md')) return href;
  const folder = path.slice(0, -'README.md'.length);
  return (folder === '' ? './' : folder) + (hash < 0 ? '' : href.slice(hash));
}

/** The anchor of an href as typed (not decoded: GitBook reads `#a/#b` and `#caf%C3%A9` as written). */
const anchorAsTyped = (href: string): string => href.slice(href.indexOf('#') + 1).trimEnd();

export function toStableLinks(local: string, t: LinkTargets, written: Readonly<Record<string, string>> = {}): string {
  return rewriteReferences(local, (ref) => {
    if (Object.hasOwn(written, ref.href)) return written[ref.href]!;
    const resolved = resolveRelativeHref(t.file, ref.href);
    const target = resolved && t.lookup(resolved.path);
    if (!resolved || !target) return null;
    const spaceId = target.spaceId === t.spaceId ? null : target.spaceId;
    // Only an include names reusable content (an ordinary link to its file stays a path).
    if (target.kind === 'include') return ref.kind === 'block' && ref.name === 'include' ? formatIncludeRef(spaceId, target.id) : null;
    const anchor = resolved.anchor === null ? null : anchorAsTyped(ref.href);
    if (target.id.startsWith('new:'))
      return target.spaceId === t.spaceId ? formatNewRef(target.kind, target.id.slice(4), target.kind === 'page' ? anchor : null) : null;
    if (target.kind === 'file') return resolved.anchor === null ? formatStableRef({ kind: 'file', spaceId, fileId: target.id }) : null;
    return formatStableRef({ kind: 'page', spaceId, pageId: target.id, anchor });
  });
}
