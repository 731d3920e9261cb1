/**
 * An organization's OpenAPI specifications (the document's `openapi` and `openapi-versions`
 * tags): each spec by slug, its versions newest first, the raw text each was published as.
 *
 * - `createOrUpdateOpenAPISpecBySlug` takes the document's `OpenAPISpecSource`: `{ text }` (the
 *   text becomes a new version, exactly as sent; its format is JSON when it starts with `{`) or
 *   `{ url }` (the fake cannot fetch the web: only a URL of this fake's blobs, such as a
 *   version's `url`). 201 when the slug was new, 200 when it added a version.
 * - Processing is instant: `processingState` is `complete` at once; a text GitBook could not parse
 *   (not JSON nor YAML, or neither `openapi` nor `swagger` at its top) leaves
 *   `lastProcessErrorCode: PARSE_ERROR` and one entry in `lastProcessedErrors`, as GitBook keeps
 *   the version and reports the error.
 * - A version's `url` is a blob of this fake holding its text; a version seeded with `raw: false`
 *   stands for GitBook's legacy versions, whose raw text the API does not have (404).
 *
 * Assumed (not found in GitBook's documentation): versions are listed newest first; the slug in
 * the path must be an `OpenAPISpecSlug` (400 otherwise).
 */
import { parse as parseYaml } from 'yaml';
import { blobKeyFor } from './batch-files';
import { ApiError } from './errors';
import type { Serializer } from './serialize';
import type { FakeStore } from './store';

const SLUG = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;

export interface OpenAPIVersionRec {
  id: string;
  createdAt: string;
  text: string;
  format: 'json' | 'yaml';
  blobKey: string;
  /** False for a legacy version: the API has no raw text for it. */
  raw: boolean;
}

export interface OpenAPISpecRec {
  id: string;
  orgId: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  visibility: 'private' | 'public';
  sourceURL?: string;
  /** Oldest first. */
  versions: OpenAPIVersionRec[];
  parseError: string | null;
}

export interface OpenAPISpecSeed {
  slug: string;
  /** One text per version, oldest first. */
  versions: string[];
  visibility?: 'private' | 'public';
  sourceURL?: string;
  /** False: its versions are legacy ones, without raw text. */
  raw?: boolean;
}

/** Why GitBook could not parse a spec's text, or null. */
function parseErrorOf(text: string): string | null {
  let value: unknown;
  try {
    value = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    return (err as Error).message.split('\n')[0] ?? 'unreadable';
  }
  const top = value as Record<string, unknown> | null;
  if (top === null || typeof top !== 'object' || Array.isArray(top)) return 'the document is not a mapping';
  if (typeof top.openapi !== 'string' && top.swagger !== '2.0') return 'neither `openapi` nor `swagger: "2.0"` at the top';
  return null;
}

export class FakeOpenAPISpecs {
  private readonly specs = new Map<string, OpenAPISpecRec>();

  constructor(private readonly store: FakeStore) {}

  /** Seeds a spec with its versions (as GitBook would hold after that many publishes). */
  add(orgId: string, seed: OpenAPISpecSeed): OpenAPISpecRec {
    this.store.org(orgId);
    if (!SLUG.test(seed.slug)) throw new Error(`"${seed.slug}" is not an OpenAPISpecSlug`);
    const spec = this.create(orgId, seed.slug);
    if (seed.visibility) spec.visibility = seed.visibility;
    if (seed.sourceURL) spec.sourceURL = seed.sourceURL;
    for (const text of seed.versions) this.addVersion(spec, text, seed.raw ?? true);
    return spec;
  }

  of(orgId: string): OpenAPISpecRec[] {
    this.store.org(orgId);
    return [...this.specs.values()].filter((s) => s.orgId === orgId);
  }

  spec(orgId: string, slug: string): OpenAPISpecRec {
    const found = this.specs.get(`${orgId}/${slug}`);
    if (!found) throw new ApiError(404, `no OpenAPI specification "${slug}" in organization "${orgId}"`);
    return found;
  }

  latest(spec: OpenAPISpecRec): OpenAPIVersionRec {
    const version = spec.versions.at(-1);
    if (!version) throw new ApiError(404, `the OpenAPI specification "${spec.slug}" has no version yet`);
    return version;
  }

  version(spec: OpenAPISpecRec, versionId: string): OpenAPIVersionRec {
    const found = spec.versions.find((v) => v.id === versionId);
    if (!found) throw new ApiError(404, `no version "${versionId}" of the OpenAPI specification "${spec.slug}"`);
    return found;
  }

  /** A new version from a text (the API's `source.text`): creates the spec when the slug is new. */
  publish(orgId: string, slug: string, text: string): { spec: OpenAPISpecRec; created: boolean } {
    this.store.org(orgId);
    if (!SLUG.test(slug)) throw new ApiError(400, `"${slug}" is not a valid slug: letters and digits, words joined by single hyphens`);
    const existing = this.specs.get(`${orgId}/${slug}`);
    const spec = existing ?? this.create(orgId, slug);
    this.addVersion(spec, text, true);
    return { spec, created: !existing };
  }

  json(spec: OpenAPISpecRec, json: Serializer): Record<string, unknown> {
    const latest = spec.versions.at(-1);
    const base = `/orgs/${spec.orgId}/openapi/${spec.slug}`;
    return {
      object: 'openapi-spec',
      id: spec.id,
      createdAt: spec.createdAt,
      updatedAt: spec.updatedAt,
      slug: spec.slug,
      ...(spec.sourceURL ? { sourceURL: spec.sourceURL } : {}),
      processingState: 'complete',
      visibility: spec.visibility,
      ...(latest ? { lastVersion: latest.id, lastProcessedAt: latest.createdAt } : {}),
      ...(spec.parseError
        ? { lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrors: [{ message: spec.parseError }], lastProcessedErrorCount: 1 }
        : { lastProcessedErrorCount: 0 }),
      permissions: { view: true, edit: true },
      urls: { location: json.api(base), app: json.app(`/o/${spec.orgId}/openapi/${spec.slug}`) },
    };
  }

  versionJson(spec: OpenAPISpecRec, version: OpenAPIVersionRec, json: Serializer): Record<string, unknown> {
    return {
      object: 'openapi-spec-version',
      id: version.id,
      createdAt: version.createdAt,
      url: this.blobUrl(version, json),
      urls: { location: json.api(`/orgs/${spec.orgId}/openapi/${spec.slug}/versions/${version.id}`) },
    };
  }

  contentJson(spec: OpenAPISpecRec, version: OpenAPIVersionRec, json: Serializer): Record<string, unknown> {
    const url = this.blobUrl(version, json);
    return { filesystem: { [`openapi.${version.format}`]: version.text }, urls: { source: url, public: spec.visibility === 'public' ? url : null } };
  }

  /** The text a URL of this fake's blobs holds (the API's `source.url`), or an error saying the fake cannot fetch it. */
  textAt(url: string, blobForUrl: (url: string) => { bytes: Buffer } | undefined): string {
    const blob = blobForUrl(url);
    if (!blob) throw new ApiError(400, `the fake API cannot download ${url}; send the specification as \`source.text\`, or a version's url of this fake`);
    return blob.bytes.toString('utf8');
  }

  private create(orgId: string, slug: string): OpenAPISpecRec {
    const now = this.store.now();
    const spec: OpenAPISpecRec = {
      id: this.store.newId('oas'),
      orgId,
      slug,
      createdAt: now,
      updatedAt: now,
      visibility: 'private',
      versions: [],
      parseError: null,
    };
    this.specs.set(`${orgId}/${slug}`, spec);
    return spec;
  }

  private addVersion(spec: OpenAPISpecRec, text: string, raw: boolean): void {
    const bytes = Buffer.from(text, 'utf8');
    const format = text.trimStart().startsWith('{') ? 'json' : 'yaml';
    const blobKey = blobKeyFor(bytes);
    if (!this.store.blobs.has(blobKey)) this.store.blobs.set(blobKey, { bytes, contentType: format === 'json' ? 'application/json' : 'application/yaml' });
    const now = this.store.now();
    spec.versions.push({ id: this.store.newId('oasv'), createdAt: now, text, format, blobKey, raw });
    spec.updatedAt = now;
    spec.parseError = parseErrorOf(text);
  }

  private blobUrl(version: OpenAPIVersionRec, json: Serializer): string {
    return `${new URL(json.api('/')).origin}/blobs/${version.blobKey}/openapi.${version.format}`;
  }
}
