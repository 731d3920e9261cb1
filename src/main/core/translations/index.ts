/**
 * An organization's translations, through the official document's `listTranslations`,
 * `runTranslation` and `getTranslation`: listed into the mirror (beside sites, by every review
 * refresh, and by `quire translations`), run again on request, and said in words a writer reads:
 * source space → target space, languages, status, last run.
 *
 * "Last run": the API gives no time of a run; a translation's `updatedAt` is when it last
 * changed, which a run does (and asking for one), so it stands for it once the translation has
 * run (`stats.runs`).
 */
import type { ApiClient } from '../api';
import type { Mirror, RemoteTranslation, TranslationRow } from '../mirror';

export interface TranslationView {
  id: string;
  organizationId: string;
  source: { spaceId: string; title: string | null; language: string };
  /** The space its runs write into; null until a first run made one. */
  target: { spaceId: string; title: string | null } | null;
  language: string;
  status: string;
  lastRunAt: string | null;
  runs: number;
}

/** Lists the organization's translations and keeps them. */
export async function refreshTranslations(
  api: ApiClient,
  mirror: Pick<Mirror, 'transaction' | 'translations'>,
  organizationId: string,
  signal?: AbortSignal,
): Promise<RemoteTranslation[]> {
  const list = await api.listAll<RemoteTranslation>((c, query, params) => c.orgs.listTranslations(organizationId, query, params), { signal });
  mirror.transaction(() => mirror.translations.replace(organizationId, list, new Date().toISOString()));
  return list;
}

/** Asks GitBook to run the translation again, then reads it back (its status now) into the mirror. */
export async function runTranslation(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'transaction' | 'translations'>,
  organizationId: string,
  translationId: string,
  signal?: AbortSignal,
): Promise<TranslationView> {
  await api.call((c, params) => c.orgs.runTranslation(organizationId, translationId, params), { signal });
  const now = await api.call<RemoteTranslation>((c, params) => c.orgs.getTranslation(organizationId, translationId, params), { signal });
  mirror.transaction(() => mirror.translations.put(organizationId, now));
  return translationView(mirror, { organizationId, translation: now });
}

export function translationView(mirror: Pick<Mirror, 'catalog'>, row: TranslationRow): TranslationView {
  const t = row.translation;
  const title = (id: string) => mirror.catalog.space(id)?.title ?? null;
  const runs = t.stats?.runs ?? 0;
  return {
    id: t.id,
    organizationId: row.organizationId,
    source: { spaceId: t.source.space, title: title(t.source.space), language: t.source.language },
    target: t.result ? { spaceId: t.result.space, title: title(t.result.space) } : null,
    language: t.language,
    status: t.status,
    lastRunAt: runs > 0 ? t.updatedAt : null,
    runs,
  };
}

/** The translations as last listed (of one organization, or all). */
export function translationViews(mirror: Pick<Mirror, 'catalog' | 'translations'>, organizationId?: string): TranslationView[] {
  return mirror.translations.list(organizationId).map((row) => translationView(mirror, row));
}

/** The translation writing into `spaceId`, as last listed, or null. */
export function translationInto(mirror: Pick<Mirror, 'catalog' | 'translations'>, spaceId: string): TranslationView | null {
  const row = mirror.translations.into(spaceId);
  return row ? translationView(mirror, row) : null;
}
