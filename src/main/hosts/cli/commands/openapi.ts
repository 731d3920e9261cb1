import { lstatSync, readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ApiClient } from '../../../core/api';
import { ApiError, NetworkError } from '../../../core/api';
import type { Mirror, OrganizationRow, RemoteOpenApiSpec, RemoteOpenApiVersion } from '../../../core/mirror';
import {
  MAX_SPEC_BYTES,
  type PulledState,
  pulledFile,
  type PullResult,
  publishSpec,
  pullSpecs,
  readSpecText,
  refreshSpecs,
  refreshVersions,
  SPEC_SLUG,
} from '../../../core/openapi';
import { plural } from '../../../../shared/plural';
import { when } from '../../../../shared/when';
import { dirFlag, has, type ParsedArgs, UsageError } from '../args';
import type { CliContext } from '../context';
import { EXIT, type CliIo } from '../io';
import { errorMessage, shellWord } from '../messages';
import { organizationsFor, refreshOrFallBack } from '../org-lists';
import { safeField } from '../terminal-text';

export interface OpenApiListJson {
  organizations: {
    id: string;
    title: string;
    /** When its specs were last listed from the server (ISO), or null. */
    refreshedAt: string | null;
    specs: {
      slug: string;
      id: string;
      lastVersion: string | null;
      updatedAt: string;
      processingState: string | null;
      /** What GitBook could not process in its latest version, or null. */
      error: string | null;
      file: string | null;
      local: PulledState;
      pulledVersion: string | null;
    }[];
  }[];
}

/**
 * `quire openapi list|pull|publish|versions --dir <folder>`: the OpenAPI specifications of the
 * folder's organizations. `list` and `versions` read the server when it answers, else the
 * mirror (saying since when); `pull` writes each spec's latest version into the sync folder;
 * `publish <slug> <file>` sends a file as a new version, once it reads as a specification.
 */
export async function openapi(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const dir = resolve(dirFlag(args));
  const mirror = ctx.openMirror(dir);
  try {
    const [verb] = args.positionals;
    if (verb === 'list') return await list(args, io, ctx, mirror, dir);
    if (verb === 'versions') return await versions(args, io, ctx, mirror, dir);
    if (verb === 'pull') return await pull(args, io, ctx, mirror, dir);
    return await publish(args, io, ctx, mirror, dir);
  } finally {
    mirror.close();
  }
}

/** What the sub-commands read and write: the organizations, their specifications, the folder. */
type SpecStores = Pick<Mirror, 'catalog' | 'openapi' | 'syncFolder' | 'transaction'>;

const LOCAL_WORDS: Record<PulledState, (file: string | null) => string> = {
  'not-pulled': () => 'not pulled',
  'as-pulled': (f) => `${f} (as pulled)`,
  edited: (f) => `${f} (edited here)`,
  missing: (f) => `${f} (not there any more)`,
};

function specNotes(s: RemoteOpenApiSpec): string {
  if (s.lastProcessErrorCode) {
    const first = s.lastProcessedErrors?.[0]?.message;
    return `; GitBook could not process its latest version (${s.lastProcessErrorCode}${first ? `: ${first}` : ''})`;
  }
  return s.processingState === 'pending' || s.processingState === 'progress' ? '; GitBook is processing it' : '';
}

async function list(args: ParsedArgs, io: CliIo, ctx: CliContext, mirror: SpecStores, dir: string): Promise<number> {
  const orgs = organizationsFor(mirror, args, dir);
  await refreshOrFallBack(
    ctx,
    mirror,
    io,
    orgs,
    'OpenAPI specifications',
    (api, org) => refreshSpecs(api, mirror, org.id, io.signal),
    (org) => mirror.openapi.listedAt(org.id, 'openapi'),
  );
  const json: OpenApiListJson = { organizations: [] };
  for (const org of orgs) {
    const specs: OpenApiListJson['organizations'][number]['specs'] = [];
    for (const s of mirror.openapi.specs(org.id)) {
      const local = await pulledFile(mirror, dir, org.id, s.slug);
      specs.push({
        slug: s.slug,
        id: s.id,
        lastVersion: s.lastVersion ?? null,
        updatedAt: s.updatedAt,
        processingState: s.processingState ?? null,
        error: s.lastProcessErrorCode ?? null,
        file: local.file,
        local: local.state,
        pulledVersion: local.versionId,
      });
    }
    json.organizations.push({ id: org.id, title: org.title, refreshedAt: mirror.openapi.listedAt(org.id, 'openapi'), specs });
  }
  if (has(args, 'json')) {
    io.stdout(JSON.stringify(json, null, 2));
    return EXIT.ok;
  }
  const lines: string[] = [];
  for (const org of json.organizations) {
    const specs = mirror.openapi.specs(org.id);
    lines.push(`${safeField(org.title)}: ${specs.length === 0 ? 'no OpenAPI specifications' : plural(specs.length, 'OpenAPI specification')}`);
    const width = Math.max(0, ...specs.map((s) => s.slug.length));
    for (const [i, s] of specs.entries()) {
      const j = org.specs[i]!;
      const newer = j.local !== 'not-pulled' && j.pulledVersion !== j.lastVersion ? '; GitBook has a newer version (`quire openapi pull`)' : '';
      lines.push(
        `  ${safeField(s.slug.padEnd(width))}  version ${safeField(j.lastVersion ?? '(none)')}, updated ${when(s.updatedAt)} — ${safeField(LOCAL_WORDS[j.local]!(j.file))}${newer}${safeField(specNotes(s))}`,
      );
    }
  }
  io.stdout(lines.join('\n'));
  return EXIT.ok;
}

/** An authenticated client, or an error saying the command needs the server. */
async function needApi(ctx: CliContext, mirror: Pick<Mirror, 'catalog' | 'syncFolder'>, doing: string): Promise<ApiClient> {
  try {
    return await ctx.apiFor(mirror);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new Error(`${doing} needs the server's answer, and Quire cannot reach it: ${errorMessage(err)}`);
  }
}

/** Runs `fn`, saying a failure to reach the server as "needs the server's answer". */
async function online<T>(doing: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof NetworkError) {
      throw new Error(
        `${doing} needs the server's answer, and the API is not reachable now (${errorMessage(err)}). Nothing was changed: run it again when online.`,
      );
    }
    throw err;
  }
}

function describePull(org: OrganizationRow, r: PullResult, dir: string, io: CliIo): boolean {
  const o = safeField(org.title);
  switch (r.kind) {
    case 'written':
      io.stdout(`${o}: ${r.slug} → ${safeField(r.file)} (version ${safeField(r.versionId ?? '?')})`);
      return false;
    case 'up-to-date':
      io.stdout(`${o}: ${r.slug} is up to date in ${safeField(r.file)} (version ${safeField(r.versionId ?? '?')})`);
      return false;
    case 'edited-here':
      io.stdout(
        `${o}: ${r.slug}: ${safeField(r.file)} is edited here and GitBook has nothing newer; \`quire openapi publish ${r.slug} ${shellWord(`${dir}/${r.file}`)} --dir ${shellWord(dir)}\` sends it.`,
      );
      return false;
    case 'both-edited':
      io.stderr(
        `${o}: ${r.slug} was edited here and on GitBook: your file ${safeField(r.file)} is kept, GitBook’s version is in ${safeField(r.remoteFile)}; merge them into your file, delete the copy, then \`quire openapi publish ${r.slug} ${shellWord(`${dir}/${r.file}`)} --dir ${shellWord(dir)}\`.`,
      );
      return true;
    case 'no-raw':
      io.stderr(
        `${o}: ${r.slug}: GitBook keeps no text of its latest version (one made before it kept them), so it cannot be pulled; publishing a file makes one.`,
      );
      return false;
    case 'bad-slug':
      io.stderr(`${o}: a specification named "${safeField(r.slug)}" was left alone: that is not a slug GitBook gives (letters, digits, single hyphens).`);
      return false;
  }
}

async function pull(args: ParsedArgs, io: CliIo, ctx: CliContext, mirror: SpecStores, dir: string): Promise<number> {
  const orgs = organizationsFor(mirror, args, dir);
  const wanted = args.positionals[1];
  const api = await needApi(ctx, mirror, 'Pulling OpenAPI specifications');
  let needsYou = false;
  let found = false;
  for (const org of orgs) {
    const specs = await online('Pulling OpenAPI specifications', () => refreshSpecs(api, mirror, org.id, io.signal));
    const chosen = wanted === undefined ? specs : specs.filter((s) => s.slug === wanted);
    found ||= chosen.length > 0;
    if (wanted === undefined && specs.length === 0) io.stdout(`${safeField(org.title)}: no OpenAPI specifications.`);
    const results = await online('Pulling OpenAPI specifications', () => pullSpecs(api, mirror, dir, org.id, chosen, io.signal));
    for (const r of results) needsYou = describePull(org, r, dir, io) || needsYou;
  }
  if (wanted !== undefined && !found) {
    throw new Error(
      `No OpenAPI specification ${safeField(wanted)} in ${orgs.map((o) => safeField(o.title)).join(', ')}; \`quire openapi list --dir ${shellWord(dir)}\` lists them.`,
    );
  }
  return needsYou ? EXIT.conflicts : EXIT.ok;
}

/**
 * The organization a slug belongs to: `--org`, else the only one, else the one a pull of `file`
 * (relative to the sync folder) wrote it for, else the one whose specs hold it.
 */
function organizationOf(
  mirror: Pick<Mirror, 'catalog' | 'openapi' | 'transaction'>,
  args: ParsedArgs,
  dir: string,
  slug: string,
  file: string | null = null,
): OrganizationRow {
  const orgs = organizationsFor(mirror, args, dir);
  if (orgs.length === 1) return orgs[0]!;
  const pulledFor = file === null ? undefined : mirror.openapi.files().find((f) => f.slug === slug && f.path === file)?.organizationId;
  const pulled = orgs.find((o) => o.id === pulledFor);
  if (pulled) return pulled;
  const holding = mirror.openapi.organizationsWith(slug);
  const matches = orgs.filter((o) => holding.includes(o.id));
  if (matches.length === 1) return matches[0]!;
  const list = orgs.map((o) => `${o.id} (${safeField(o.title)})`).join(', ');
  throw new UsageError(`say which organization ${slug} is in with --org <organizationId> (this folder knows ${list}).`, { usage: false });
}

/** The file to publish, read as text: a file, at most MAX_SPEC_BYTES, UTF-8. */
function readSpecFile(file: string): string {
  let size: number;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) throw new Error(`${file} is not a file: give the specification's file.`);
    size = st.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${file} does not exist: give the specification's file.`);
    throw err;
  }
  if (size > MAX_SPEC_BYTES)
    throw new Error(`${file} is ${Math.ceil(size / 1024 / 1024)} MB, and Quire sends at most ${MAX_SPEC_BYTES / 1024 / 1024} MB. Nothing was sent.`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch {
    throw new Error(`${file} is not UTF-8 text, so it is not a specification GitBook reads. Nothing was sent.`);
  }
}

async function publish(args: ParsedArgs, io: CliIo, ctx: CliContext, mirror: SpecStores, dir: string): Promise<number> {
  const [, slug = '', given = ''] = args.positionals;
  if (!SPEC_SLUG.test(slug) || slug.length > 100) {
    throw new UsageError(`"${slug}" is not a specification slug: letters and digits, words joined by single hyphens (such as petstore-v2).`, { usage: false });
  }
  const text = readSpecFile(given);
  const read = readSpecText(text);
  if (!read.ok) {
    throw new Error(
      `${given} is not an OpenAPI 3.x or Swagger 2.0 specification: ${read.line === null ? '' : `line ${read.line}: `}${read.reason}. Nothing was sent.`,
    );
  }
  const rel = relative(dir, resolve(given)).split(sep).join('/');
  const inside = rel !== '' && !rel.startsWith('../') && rel !== '..' && !isAbsolute(rel);
  const org = organizationOf(mirror, args, dir, slug, inside ? rel : null);
  const api = await needApi(ctx, mirror, 'Publishing an OpenAPI specification');
  const result = await online('Publishing an OpenAPI specification', async () => {
    await refreshSpecs(api, mirror, org.id, io.signal);
    return publishSpec(api, mirror, org.id, slug, text, inside ? rel : null, io.signal);
  });
  const what = result.created
    ? 'a new specification'
    : `a new version${result.previousVersionId ? `; the previous was ${safeField(result.previousVersionId)}` : ''}`;
  io.stdout(`Published ${safeField(given)} to ${slug} in ${safeField(org.title)}: version ${safeField(result.versionId ?? '?')} (${what}).`);
  const notes = specNotes(result.spec);
  if (notes) io.stderr(`${slug}${safeField(notes.replace(/^; /, ': '))}.`);
  return EXIT.ok;
}

export interface OpenApiVersionsJson {
  organizationId: string;
  slug: string;
  refreshedAt: string | null;
  versions: { id: string; createdAt: string | null; url: string; latest: boolean; pulled: boolean }[];
}

async function versions(args: ParsedArgs, io: CliIo, ctx: CliContext, mirror: SpecStores, dir: string): Promise<number> {
  const slug = args.positionals[1] ?? '';
  const org = organizationOf(mirror, args, dir, slug);
  let missing = false;
  await refreshOrFallBack(
    ctx,
    mirror,
    io,
    [org],
    `versions of ${slug}`,
    async (api) => {
      try {
        await refreshSpecs(api, mirror, org.id, io.signal);
        await refreshVersions(api, mirror, org.id, slug, io.signal);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) missing = true;
        else throw err;
      }
    },
    () => mirror.openapi.versions(org.id, slug)?.refreshedAt ?? null,
  );
  const known = mirror.openapi.versions(org.id, slug);
  if (missing || !known) {
    throw new Error(
      `No OpenAPI specification ${slug} in ${safeField(org.title)}${missing ? '' : ' as last listed'}; \`quire openapi list --dir ${shellWord(dir)}\` lists them.`,
    );
  }
  const latest = mirror.openapi.specs(org.id).find((s) => s.slug === slug)?.lastVersion ?? known.versions[0]?.id;
  const pulled = mirror.openapi.file(org.id, slug);
  const json: OpenApiVersionsJson = {
    organizationId: org.id,
    slug,
    refreshedAt: known.refreshedAt,
    versions: known.versions.map((v: RemoteOpenApiVersion) => ({
      id: v.id,
      createdAt: v.createdAt ?? null,
      url: v.url,
      latest: v.id === latest,
      pulled: pulled?.versionId === v.id,
    })),
  };
  if (has(args, 'json')) {
    io.stdout(JSON.stringify(json, null, 2));
    return EXIT.ok;
  }
  const lines = [`${safeField(org.title)}: ${slug} — ${plural(json.versions.length, 'version')}, newest first`];
  const width = Math.max(0, ...json.versions.map((v) => v.id.length));
  for (const v of json.versions) {
    const notes = [v.latest ? 'latest' : '', v.pulled && pulled ? `in ${pulled.path}` : ''].filter(Boolean).join('; ');
    lines.push(`  ${safeField(v.id.padEnd(width))}  ${v.createdAt ? when(v.createdAt) : '(no date)'}${notes ? `  ${safeField(notes)}` : ''}`);
  }
  io.stdout(lines.join('\n'));
  return EXIT.ok;
}
