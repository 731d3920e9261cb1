/**
 * An organization's translations (the document's `translations` tag): a source space in its
 * language translated into another language, the result landing in a target space.
 *
 * - `runTranslation` answers 204 and leaves the translation `pending`, as GitBook queues the run;
 *   `finishRun` (a test's hand, standing for GitBook's worker) completes it: `completed`, one run
 *   more in `stats`, and `result` naming the target space and its revision at that moment (a test
 *   that models the run's output edits the target space first, as GitBook's run replaces it).
 * - A translation never run has no `result` (the document makes it optional).
 *
 * Assumed: a run asked for while one is pending is one run (204, nothing more).
 */
import { ApiError } from './errors';
import type { Serializer } from './serialize';
import type { FakeStore } from './store';

export type TranslationStatus = 'pending' | 'running' | 'completed';

export interface TranslationRec {
  id: string;
  orgId: string;
  sourceSpaceId: string;
  sourceLanguage: string;
  language: string;
  /** The space the runs write into; null until the first run made one. */
  targetSpaceId: string | null;
  /** The revision the last finished run made in the target. */
  resultRevision: string | null;
  status: TranslationStatus;
  runs: number;
  createdAt: string;
  updatedAt: string;
}

export interface TranslationSeed {
  source: string;
  sourceLanguage?: string;
  language: string;
  /** The target space, when the translation has run before. */
  target?: string;
  status?: TranslationStatus;
  runs?: number;
}

export class FakeTranslations {
  private readonly byId = new Map<string, TranslationRec>();

  constructor(private readonly store: FakeStore) {}

  add(orgId: string, seed: TranslationSeed): TranslationRec {
    this.store.org(orgId);
    this.store.space(seed.source);
    const target = seed.target === undefined ? null : this.store.space(seed.target);
    const now = this.store.now();
    const rec: TranslationRec = {
      id: this.store.newId('trans'),
      orgId,
      sourceSpaceId: seed.source,
      sourceLanguage: seed.sourceLanguage ?? 'en',
      language: seed.language,
      targetSpaceId: target?.id ?? null,
      resultRevision: target?.revisionId ?? null,
      status: seed.status ?? (target ? 'completed' : 'pending'),
      runs: seed.runs ?? (target ? 1 : 0),
      createdAt: now,
      updatedAt: now,
    };
    this.byId.set(rec.id, rec);
    return rec;
  }

  of(orgId: string): TranslationRec[] {
    this.store.org(orgId);
    return [...this.byId.values()].filter((t) => t.orgId === orgId);
  }

  get(orgId: string, id: string): TranslationRec {
    const found = this.byId.get(id);
    if (!found || found.orgId !== orgId) throw new ApiError(404, `no translation "${id}" in organization "${orgId}"`);
    return found;
  }

  /** The API's run: queued. */
  run(orgId: string, id: string): void {
    const t = this.get(orgId, id);
    if (t.status === 'pending') return;
    t.status = 'pending';
    t.updatedAt = this.store.now();
  }

  /** GitBook's worker finishes the run: the target space's current revision is its result. */
  finishRun(id: string): TranslationRec {
    const t = this.byId.get(id);
    if (!t) throw new Error(`no translation ${id}`);
    if (t.targetSpaceId === null) throw new Error(`translation ${id} has no target space to write into`);
    t.status = 'completed';
    t.runs += 1;
    t.resultRevision = this.store.space(t.targetSpaceId).revisionId;
    t.updatedAt = this.store.now();
    return t;
  }

  json(t: TranslationRec, json: Serializer): Record<string, unknown> {
    return {
      object: 'translation',
      id: t.id,
      status: t.status,
      source: { space: t.sourceSpaceId, language: t.sourceLanguage },
      language: t.language,
      instructions: { object: 'document', data: {}, nodes: [] },
      ...(t.targetSpaceId !== null && t.resultRevision !== null
        ? { result: { space: t.targetSpaceId, revision: t.resultRevision, language: t.language } }
        : {}),
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      stats: {
        runs: t.runs,
        totalWords: t.runs * 1200,
        totalPages: t.runs ? 5 : 0,
        totalDuration: t.runs * 40,
        latestRunDuration: t.runs ? 40 : 0,
        latestPages: t.runs ? 5 : 0,
        latestWords: t.runs ? 1200 : 0,
      },
      permissions: { view: true, edit: true },
      urls: { location: json.api(`/orgs/${t.orgId}/translations/${t.id}`) },
    };
  }
}
