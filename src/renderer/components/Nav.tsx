import { useRef, type KeyboardEvent } from 'react';

export type ViewId = 'spaces' | 'conflicts' | 'review' | 'log' | 'sites' | 'pages' | 'history';

export const VIEWS: { id: ViewId; label: string }[] = [
  { id: 'spaces', label: 'Spaces' },
  { id: 'conflicts', label: 'Conflicts' },
  { id: 'review', label: 'Review' },
  { id: 'log', label: 'Sync log' },
  { id: 'sites', label: 'Sites' },
  { id: 'pages', label: 'Pages' },
  { id: 'history', label: 'History' },
];

/** Ctrl+K, or ⌘K on a Mac. */
const SEARCH_KEYS = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘K' : 'Ctrl+K';

/** The view switcher: arrow keys move between entries, Alt+1…7 jumps from anywhere; and the search box's button. */
export function Nav({
  current,
  onSelect,
  onSearch,
  conflicts,
  pending,
}: {
  current: ViewId;
  onSelect(id: ViewId): void;
  onSearch(): void;
  conflicts: number;
  pending: number;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const delta = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    refs.current[(index + delta + VIEWS.length) % VIEWS.length]?.focus();
  };
  return (
    <nav className="nav" aria-label="Views">
      <button
        type="button"
        className="search-open"
        onClick={onSearch}
        aria-keyshortcuts="Control+K Meta+K"
        title={`Search pages and comments (${SEARCH_KEYS})`}
      >
        <span>Search…</span>
        <kbd className="muted small">{SEARCH_KEYS}</kbd>
      </button>
      <ul>
        {VIEWS.map((v, i) => (
          <li key={v.id}>
            <button
              type="button"
              ref={(el) => {
                refs.current[i] = el;
              }}
              className={current === v.id ? 'current' : ''}
              aria-current={current === v.id ? 'page' : undefined}
              onClick={() => onSelect(v.id)}
              onKeyDown={(e) => onKeyDown(e, i)}
              title={`${v.label} (Alt+${i + 1})`}
            >
              <span>{v.label}</span>
              {v.id === 'conflicts' && conflicts > 0 && <span className="count danger">{conflicts}</span>}
              {v.id === 'review' && pending > 0 && (
                <span className="count pending" title="Actions waiting to be sent">
                  {pending}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      <p className="hint muted">Alt+1…{VIEWS.length} switch views</p>
    </nav>
  );
}
