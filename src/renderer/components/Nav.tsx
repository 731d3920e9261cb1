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

/** Each view's icon (16×16 strokes): what the sidebar shows alone when it is narrow. */
const ICONS: Record<ViewId | 'search', string> = {
  spaces: 'M1.5 3.5h4.5l1.5 1.5h7v8.5h-13z',
  conflicts: 'M8 1.8l6.6 11.7H1.4zM8 6.2v3.6M8 11.4v.4',
  review: 'M1.5 2.5h13v8.5h-7.5l-3.5 3v-3h-2z',
  log: 'M2 3.5h12M2 7.5h12M2 11.5h8',
  sites: 'M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13zM1.5 8h13M8 1.5c-2.4 2.6-2.4 10.4 0 13M8 1.5c2.4 2.6 2.4 10.4 0 13',
  pages: 'M3.5 1.5h6l3 3v10h-9zM9.5 1.5v3h3M5.5 8h5M5.5 11h5',
  history: 'M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13zM8 4.5v3.8l2.6 1.6',
  search: 'M6.8 1.8a5 5 0 1 0 0 10a5 5 0 1 0 0-10zM10.5 10.5l4 4',
};

export function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <path d={ICONS[name]} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Ctrl+K, or ⌘K on a Mac. */
const SEARCH_KEYS = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘K' : 'Ctrl+K';

/**
 * The view switcher: arrow keys move between entries, Alt+1…7 jumps from anywhere; and the
 * search box's button. Below ~1000 px wide it collapses to its icons (the names stay for
 * screen readers and in each entry's tooltip).
 */
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
        <Icon name="search" />
        <span className="nav-label">Search…</span>
        <kbd className="muted small nav-label">{SEARCH_KEYS}</kbd>
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
              <Icon name={v.id} />
              <span className="nav-label">{v.label}</span>
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
      <p className="hint muted nav-label">Alt+1…{VIEWS.length} switch views</p>
    </nav>
  );
}
