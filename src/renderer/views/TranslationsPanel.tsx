import type { TranslationVM } from '../../shared/contract';
import { ErrorNotice } from '../components/ErrorNotice';
import { useAction, useQuery } from '../hooks/use-query';
import { plural, timeAgo } from '../lib/format';

const spaceName = (s: { spaceId: string; title: string | null } | null): string => (s === null ? 'no target space yet' : (s.title ?? s.spaceId));

/**
 * The organizations' translations, as last listed: source space → target space, languages,
 * status and last run, each with a button that asks GitBook to run it again (which replaces
 * the target space's content: the button says so).
 */
export function TranslationsPanel() {
  const list = useQuery('translations.list', {}, ['sites']);
  return (
    <section className="translations card" aria-labelledby="translations-title">
      <h2 id="translations-title">Translations</h2>
      <ErrorNotice error={list.error} />
      {list.data && list.data.length === 0 && (
        <p className="muted small">No translations in the mirror. They appear after a sync, if your organizations have any.</p>
      )}
      {list.data && list.data.length > 0 && (
        <ul className="translation-list">
          {list.data.map((t) => (
            <TranslationRow key={t.id} t={t} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TranslationRow({ t }: { t: TranslationVM }) {
  const run = useAction();
  const target = spaceName(t.target);
  return (
    <li className="translation" data-testid={`translation-${t.id}`} aria-label={`${spaceName(t.source)} to ${target}, ${t.language}`}>
      <div className="translation-spaces">
        <strong>{spaceName(t.source)}</strong> <span aria-hidden="true">→</span> <strong>{target}</strong>{' '}
        <span className="badge">
          {t.source.language} → {t.language}
        </span>
        <span className={`badge ${t.status === 'completed' ? 'ok' : 'muted'}`} data-testid="translation-status">
          {t.status}
        </span>
      </div>
      <div className="muted small">
        {t.lastRunAt ? `Last run ${timeAgo(t.lastRunAt)} · ${plural(t.runs, 'run')}` : 'Never run'}
        {t.organizationTitle && ` · ${t.organizationTitle}`}
      </div>
      <div className="actions">
        <button
          type="button"
          disabled={run.busy}
          title={`GitBook translates ${spaceName(t.source)} again; the result replaces the content of ${target}, edits made there included.`}
          onClick={() => void run.run('translations.run', { organizationId: t.organizationId, translationId: t.id })}
        >
          {run.busy ? 'Asking GitBook…' : 'Run again'}
        </button>
      </div>
      <ErrorNotice error={run.error} onDismiss={run.clearError} />
    </li>
  );
}
