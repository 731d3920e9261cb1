import { useRef, type KeyboardEvent } from 'react';

export type ViewId = 'spaces' | 'conflicts' | 'review' | 'log' | 'sites' | 'pages';

export const VIEWS: { id: ViewId; label: string }[] = [
  { id: 'spaces', label: 'Spaces' },
  { id: 'conflicts', label: 'Conflicts' },
  { id: 'review', label: 'Review' },
  { id: 'log', label: 'Sync log' },
  { id: 'sites', label: 'Sites' },
  { id: 'pages', label: 'Pages' },
];

/** The view switcher: arrow keys move between entries, Alt+1…6 jumps from anywhere. */
export function Nav({ current, onSelect, conflicts, pending }: { current: ViewId; onSelect(id: ViewId): void; conflicts: number; pending: number }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const delta = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    refs.current[(index + delta + VIEWS.length) % VIEWS.length]?.focus();
  };
  return (
    <nav className="nav" aria-label="Views">
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
