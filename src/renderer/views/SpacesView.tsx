import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { SYNC_STATE_WORDS, type CatalogVM, type CollectionVM, type SpaceVM, type SyncStatusVM } from '../../shared/contract';
import { useAction, useQuery } from '../hooks/use-query';
import { ErrorNotice } from '../components/ErrorNotice';
import { useOpenPath } from '../components/OpenPath';
import { timeAgo, plural } from '../lib/format';

/** A chosen space's state in the words the header uses; a space not chosen says so. */
const STATE_TEXT: Record<SpaceVM['state'], string> = { ...SYNC_STATE_WORDS, 'not-set-up': 'Not synced yet', 'not-chosen': 'Not chosen' };

/** Organizations, collections and spaces: which to sync, where, and how each is doing. */
export function SpacesView({ status }: { status: SyncStatusVM | undefined }) {
  const catalog = useQuery('catalog.get', {}, ['catalog']);
  const action = useAction();
  const refresh = () => void action.run('catalog.refresh', {});

  return (
    <section className="spaces" aria-labelledby="spaces-title">
      <div className="view-head">
        <h1 id="spaces-title">Spaces</h1>
        <button type="button" onClick={refresh} disabled={action.busy}>
          {action.busy ? 'Refreshing…' : 'Refresh list'}
        </button>
      </div>
      {catalog.data && catalog.data.spaces.length > 0 && !catalog.data.spaces.some((s) => s.selected) && (
        <div className="notice first-run" role="note" data-testid="choose-spaces">
          <span>
            <strong>No space is chosen for this folder yet.</strong> Tick the spaces to sync below: each one’s first sync starts at once, into its own folder.
          </span>
        </div>
      )}
      <SettingsPanel />
      <ErrorNotice error={action.error ?? catalog.error} onDismiss={action.clearError} />
      {catalog.data && <CatalogTree catalog={catalog.data} status={status} />}
      {catalog.data && catalog.data.spaces.length === 0 && (
        <p className="muted empty">No spaces listed yet. Press “Refresh list” to fetch the organizations and spaces your token reaches.</p>
      )}
    </section>
  );
}

function SettingsPanel() {
  const settings = useQuery('settings.get', {}, ['settings']);
  const action = useAction();
  const openPath = useOpenPath();
  const [editing, setEditing] = useState<string | null>(null);
  const s = settings.data;
  if (!s) return null;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (editing === null) return;
    const ok = await action.run('settings.update', { folder: editing.trim() });
    if (ok) setEditing(null);
  };

  return (
    <div className="settings card">
      <div className="setting">
        <span className="label">Sync folder</span>
        {editing === null ? (
          <>
            <code data-testid="sync-folder">{s.folder}</code>
            <button type="button" className="secondary" onClick={() => void openPath('app.openFolder', {})}>
              Open folder
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => (s.canChooseFolder ? void action.run('settings.chooseFolder', {}) : setEditing(s.folder))}
            >
              Change…
            </button>
          </>
        ) : (
          <form onSubmit={(e) => void save(e)} className="inline-form">
            <label className="sr-only" htmlFor="folder-input">
              Sync folder path
            </label>
            {/* biome-ignore lint/a11y/noAutofocus: the user just opened this form to type here. */}
            <input id="folder-input" value={editing} onChange={(e) => setEditing(e.target.value)} autoFocus spellCheck={false} />
            <button type="submit" className="primary" disabled={action.busy}>
              Use this folder
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </form>
        )}
      </div>
      <label className="setting checkbox">
        <input type="checkbox" checked={s.notifications} onChange={(e) => void action.run('settings.update', { notifications: e.target.checked })} />
        Notify me about new conflicts, comments on my change requests and replies to my comments
      </label>
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </div>
  );
}

function CatalogTree({ catalog, status }: { catalog: CatalogVM; status: SyncStatusVM | undefined }) {
  const byParent = useMemo(() => {
    const map = new Map<string, CollectionVM[]>();
    for (const c of catalog.collections) {
      const key = `${c.organizationId}/${c.parentId ?? ''}`;
      map.set(key, [...(map.get(key) ?? []), c]);
    }
    return map;
  }, [catalog.collections]);
  const spacesIn = (orgId: string, collectionId: string | null) => catalog.spaces.filter((s) => s.organizationId === orgId && s.collectionId === collectionId);

  const renderCollection = (orgId: string, c: CollectionVM, depth: number) => (
    <li key={c.id} className="collection">
      <div className="collection-title" style={{ paddingLeft: depth * 16 }}>
        <span aria-hidden="true">▸ </span>
        {c.title}
      </div>
      <ul>
        {(byParent.get(`${orgId}/${c.id}`) ?? []).map((child) => renderCollection(orgId, child, depth + 1))}
        {spacesIn(orgId, c.id).map((s) => (
          <SpaceRow key={s.id} space={s} depth={depth + 1} status={status} />
        ))}
      </ul>
    </li>
  );

  return (
    <div className="catalog">
      {catalog.organizations.map((org) => (
        <section key={org.id} className="org card" aria-label={org.title}>
          <h2>{org.title}</h2>
          <ul className="tree">
            {(byParent.get(`${org.id}/`) ?? []).map((c) => renderCollection(org.id, c, 0))}
            {spacesIn(org.id, null).map((s) => (
              <SpaceRow key={s.id} space={s} depth={0} status={status} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function SpaceRow({ space, depth, status }: { space: SpaceVM; depth: number; status: SyncStatusVM | undefined }) {
  const action = useAction();
  const openPath = useOpenPath();
  // Shown at once; the host's answer (a catalog refresh) confirms or, on error, reverts it.
  const [optimistic, setOptimistic] = useState<boolean | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs because the host's answer changed space.selected; it resets what was shown meanwhile.
  useEffect(() => setOptimistic(null), [space.selected]);
  const selected = optimistic ?? space.selected;
  const running = status?.state === 'syncing' && status.progress?.spaceId === space.id ? status.progress : null;
  const state = running ? 'syncing' : selected ? (space.state === 'not-chosen' ? 'not-set-up' : space.state) : 'not-chosen';
  return (
    <li className={`space-row state-${state}`} data-testid={`space-${space.id}`} data-state={state}>
      <label className="space-select" style={{ paddingLeft: depth * 16 }}>
        <input
          type="checkbox"
          checked={selected}
          onChange={(e) => {
            const next = e.target.checked;
            setOptimistic(next);
            void action.run('spaces.select', { spaceIds: [space.id], selected: next }).then((r) => r === undefined && setOptimistic(null));
          }}
          aria-label={`Sync ${space.title}`}
        />
        <span className="emoji" aria-hidden="true">
          {space.emoji ?? '📄'}
        </span>
        <span className="space-title">{space.title}</span>
      </label>
      <span className={`badge state ${state}`}>{STATE_TEXT[state]}</span>
      {running && running.total > 0 && (
        <progress max={running.total} value={running.done} aria-label={`Sync progress of ${space.title}`} className="row-progress" />
      )}
      {selected && <span className="muted small">last sync {timeAgo(space.lastSyncAt)}</span>}
      {space.pendingEdits > 0 && <span className="badge pending">{plural(space.pendingEdits, 'local edit')}</span>}
      {space.conflicts > 0 && <span className="badge danger">{plural(space.conflicts, 'conflict')}</span>}
      {space.folder && (
        <button type="button" className="link small" onClick={() => void openPath('app.openFolder', { spaceId: space.id })}>
          Open folder
        </button>
      )}
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </li>
  );
}
