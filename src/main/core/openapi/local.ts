/**
 * The specification files of a folder that OpenAPI blocks render from: for a sync folder, the
 * files `quire openapi pull` wrote for the organization of the page's space (by slug, for
 * `{% openapi-operation spec="…" %}`, or by the URL a spec was created from, for
 * `{% openapi src="https://…" %}`); for a folder without a mirror (a Git Sync repository), the
 * files of its `.openapi/` folder by slug. What the mirror says is read once, when the folder is
 * loaded; the files are read when a block asks, again only once they changed on disk.
 *
 * A file is read only inside the folder, never through a symbolic link, and only up to
 * MAX_SPEC_BYTES; a file that is not UTF-8 reads as a specification that does not parse.
 */
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Mirror } from '../mirror';
import { MAX_SPEC_BYTES, readSpecText, type SpecText } from './spec-text';

/** The folder the first organization's spec files go in; others get `.openapi-<organization slug>`. */
export const OPENAPI_DIR = '.openapi';
const EXTENSIONS = ['yaml', 'yml', 'json'];

/** A specification file as read, with what reading it found. */
export interface LocalSpec {
  /** Relative to the folder, `/` separators. */
  file: string;
  read: SpecText;
}

interface OrgSpecs {
  folder: string;
  /** slug -> the file a pull wrote. */
  files: Map<string, string>;
}

export class LocalSpecs {
  private readonly cache = new Map<string, { mtimeMs: number; size: number; read: SpecText }>();

  private constructor(
    private readonly root: string,
    /** spaceId (null for a folder without a mirror) -> its organization's spec files. */
    private readonly specsOf: (spaceId: string | null) => OrgSpecs | null,
    /** The URL a spec was created from -> its file, per organization. */
    private readonly urls: Map<string, Map<string, string>>,
    private readonly orgOf: (spaceId: string | null) => string | null,
  ) {}

  /** The spec files of `root`: through the mirror's records when it has one, else its `.openapi/` folder. */
  static of(root: string, mirror: Pick<Mirror, 'catalog' | 'openapi'> | null): LocalSpecs {
    if (!mirror) {
      const own: OrgSpecs = { folder: OPENAPI_DIR, files: new Map() };
      return new LocalSpecs(
        root,
        () => own,
        new Map(),
        () => null,
      );
    }
    const orgBySpace = new Map(mirror.catalog.spaces().map((s) => [s.id, s.organizationId]));
    const byOrg = new Map<string, OrgSpecs>();
    for (const [org, folder] of mirror.openapi.folders()) byOrg.set(org, { folder, files: new Map() });
    const byUrl = new Map<string, Map<string, string>>();
    for (const f of mirror.openapi.files()) byOrg.get(f.organizationId)?.files.set(f.slug, f.path);
    for (const [org, specs] of byOrg) {
      const urls = new Map<string, string>();
      for (const spec of mirror.openapi.specs(org)) {
        const file = specs.files.get(spec.slug);
        if (spec.sourceURL && file) urls.set(spec.sourceURL, file);
      }
      byUrl.set(org, urls);
    }
    const orgOf = (spaceId: string | null) => (spaceId === null ? null : (orgBySpace.get(spaceId) ?? null));
    return new LocalSpecs(root, (spaceId) => byOrg.get(orgOf(spaceId) ?? '') ?? null, byUrl, orgOf);
  }

  /** The spec named `slug` for a page of `spaceId`, when its file is here. */
  bySlug(spaceId: string | null, slug: string): LocalSpec | null {
    const specs = this.specsOf(spaceId);
    if (!specs || !/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(slug)) return null;
    const recorded = specs.files.get(slug);
    const candidates = recorded ? [recorded] : EXTENSIONS.map((ext) => `${specs.folder}/${slug}.${ext}`);
    for (const file of candidates) {
      const found = this.read(file);
      if (found) return found;
    }
    return null;
  }

  /** The spec created from `url` in the organization of `spaceId`, when its file is here. */
  byUrl(spaceId: string | null, url: string): LocalSpec | null {
    const file = this.urls.get(this.orgOf(spaceId) ?? '')?.get(url);
    return file ? this.read(file) : null;
  }

  /** A file of the folder read as a specification (an asset a block's `src` names); null when it is not there. */
  read(file: string): LocalSpec | null {
    const abs = join(this.root, file);
    let stat: { mtimeMs: number; size: number };
    try {
      const st = lstatSync(abs);
      if (!st.isFile()) return null;
      const real = realpathSync(abs);
      const root = realpathSync(this.root);
      if (!real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return null;
      stat = { mtimeMs: st.mtimeMs, size: st.size };
    } catch {
      return null;
    }
    const cached = this.cache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return { file, read: cached.read };
    let read: SpecText;
    if (stat.size > MAX_SPEC_BYTES) read = { ok: false, line: null, reason: `it is over ${MAX_SPEC_BYTES / 1024 / 1024} MB, more than Quire reads` };
    else {
      try {
        read = readSpecText(new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(abs)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== undefined) return null;
        read = { ok: false, line: null, reason: 'it is not UTF-8 text' };
      }
    }
    this.cache.set(file, { ...stat, read });
    return { file, read };
  }
}
