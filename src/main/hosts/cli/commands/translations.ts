import { NetworkError } from '../../../core/api';
import type { Mirror } from '../../../core/mirror';
import { refreshTranslations, runTranslation, type TranslationView, translationViews } from '../../../core/translations';
import { plural } from '../../../../shared/plural';
import { when } from '../../../../shared/when';
import { dirFlag, flag, has, type ParsedArgs } from '../args';
import type { CliContext } from '../context';
import { EXIT, type CliIo } from '../io';
import { errorMessage } from '../messages';
import { organizationsFor, refreshOrFallBack, tryApi } from '../org-lists';
import { safeField } from '../terminal-text';

export interface TranslationsJson {
  translations: TranslationView[];
}

const space = (s: { spaceId: string; title: string | null } | null): string => (s === null ? '(no target space yet)' : safeField(s.title ?? s.spaceId));

/** One translation on one line: `Handbook → Manuel, en → fr: completed, last run … (3 runs)  [id]`. */
function line(t: TranslationView): string {
  const last = t.lastRunAt ? `last run ${when(t.lastRunAt)} (${plural(t.runs, 'run')})` : 'never run';
  return `  ${space(t.source)} → ${space(t.target)}, ${safeField(t.source.language)} → ${safeField(t.language)}: ${safeField(t.status)}, ${last}  [${safeField(t.id)}]`;
}

/**
 * `quire translations --dir <folder> [--org <id>] [--json] [--run <translationId>]`: each
 * translation of the folder's organizations (source space → target space, languages, status,
 * last run), from the server when it answers, else from the mirror (saying since when).
 * `--run` asks GitBook to run one again: that needs the server's answer, and is never queued.
 */
export async function translations(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const dir = dirFlag(args);
  const mirror = ctx.openMirror(dir);
  try {
    const toRun = flag(args, 'run');
    if (toRun !== undefined) return await run(args, io, ctx, mirror, dir, toRun);
    const orgs = organizationsFor(mirror, args, dir);
    await refreshOrFallBack(
      ctx,
      mirror,
      io,
      orgs,
      'translations',
      (api, org) => refreshTranslations(api, mirror, org.id, io.signal),
      (org) => mirror.translations.listedAt(org.id),
    );
    const views = orgs.map((org) => ({ org, list: translationViews(mirror, org.id) }));
    if (has(args, 'json')) {
      const json: TranslationsJson = { translations: views.flatMap((v) => v.list) };
      io.stdout(JSON.stringify(json, null, 2));
      return EXIT.ok;
    }
    const lines: string[] = [];
    for (const { org, list } of views) {
      lines.push(`${safeField(org.title)}: ${list.length === 0 ? 'no translations' : plural(list.length, 'translation')}`);
      for (const t of list) lines.push(line(t));
    }
    io.stdout(lines.join('\n'));
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}

async function run(
  args: ParsedArgs,
  io: CliIo,
  ctx: CliContext,
  mirror: Pick<Mirror, 'catalog' | 'syncFolder' | 'transaction' | 'translations'>,
  dir: string,
  id: string,
): Promise<number> {
  const orgs = organizationsFor(mirror, args, dir);
  const offline = (why: string) =>
    new Error(`running a translation needs the server's answer, and the API is not reachable now (${why}). Nothing was queued: run it again when online.`);
  const { api, why } = await tryApi(ctx, mirror);
  if (!api) throw offline(why ?? 'no API');
  try {
    // The organization holding it, as the server lists them now.
    for (const org of orgs) await refreshTranslations(api, mirror, org.id, io.signal);
  } catch (err) {
    if (err instanceof NetworkError) throw offline(errorMessage(err));
    throw err;
  }
  const found = translationViews(mirror).find((t) => t.id === id && orgs.some((o) => o.id === t.organizationId));
  if (!found) throw new Error(`no translation ${safeField(id)} in the organizations this folder knows; \`quire translations\` lists them.`);
  let now: TranslationView;
  try {
    now = await runTranslation(api, mirror, found.organizationId, id, io.signal);
  } catch (err) {
    if (err instanceof NetworkError) throw offline(errorMessage(err));
    throw err;
  }
  const target = now.target ? space(now.target) : 'its target space';
  io.stdout(
    `Translation ${space(now.source)} → ${target} (${safeField(now.language)}): run requested; GitBook has it ${safeField(now.status)}. When it runs, it replaces the edits made in ${target}.`,
  );
  return EXIT.ok;
}
