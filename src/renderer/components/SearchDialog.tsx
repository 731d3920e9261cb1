import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchResultVM } from '../../shared/contract';
import type { Route } from '../../shared/routes';
import { useBridge } from '../hooks/bridge-context';
import { prefixLastWord } from '../../shared/search-query';
import { Snippet } from './Snippet';

const DEBOUNCE_MS = 120;
const LIMIT = 30;

type SearchState =
  | { status: 'idle' }
  | { status: 'searching'; results: SearchResultVM[] }
  | { status: 'done'; results: SearchResultVM[] }
  | { status: 'error'; message: string };

/** Results for what is typed, as it is typed: a short pause first, and a late answer to an older query is dropped. */
function useSearch(typed: string): SearchState {
  const bridge = useBridge();
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const generation = useRef(0);
  useEffect(() => {
    const gen = ++generation.current;
    const query = prefixLastWord(typed);
    if (query === '') {
      setState({ status: 'idle' });
      return;
    }
    setState((s) => ({ status: 'searching', results: 'results' in s ? s.results : [] }));
    const timer = setTimeout(() => {
      bridge.request('search.query', { query: query.slice(0, 500), limit: LIMIT }).then(
        (results) => gen === generation.current && setState({ status: 'done', results }),
        (e: unknown) => gen === generation.current && setState({ status: 'error', message: e instanceof Error ? e.message : String(e) }),
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [bridge, typed]);
  return state;
}

/** Where a result opens: a page in the Pages view, a comment in the review view. */
function routeOf(r: SearchResultVM): Route {
  return r.kind === 'page' ? { name: 'pages.open', spaceId: r.spaceId, path: r.path } : { name: 'review.comment', spaceId: r.spaceId, commentId: r.commentId };
}

function whereOf(r: SearchResultVM): string {
  if (r.kind === 'page') return `${r.file ?? r.path}${r.reusable ? ' · reusable content' : r.pageId === null ? ' · new, not pushed yet' : ''}`;
  const place = r.changeRequestId ? `change request #${r.changeRequestNumber ?? '?'}` : 'main content';
  return [`${r.kind === 'reply' ? 'Reply' : 'Comment'} by ${r.author || 'unknown'}`, place, r.file ?? r.title].filter(Boolean).join(' · ');
}

/**
 * The search box (Ctrl+K / Cmd+K): pages and comments of every synced space, offline. Arrow
 * keys choose, Enter opens, Escape closes; focus stays in the box while it is open.
 */
export function SearchDialog({ onClose, onOpen }: { onClose(): void; onOpen(route: Route): void }) {
  const [typed, setTyped] = useState('');
  const [chosen, setActive] = useState(0);
  const search = useSearch(typed);
  const results = 'results' in search ? search.results : [];
  const active = Math.max(0, Math.min(chosen, results.length - 1));
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => inputRef.current?.focus(), []);
  useEffect(() => {
    listRef.current?.children[active]?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const open = (r: SearchResultVM | undefined) => {
    if (!r) return;
    onOpen(routeOf(r));
    onClose();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = results.length;
    if (e.key === 'Escape') onClose();
    else if (e.key === 'ArrowDown' && n > 0) setActive((active + 1) % n);
    else if (e.key === 'ArrowUp' && n > 0) setActive((active - 1 + n) % n);
    else if (e.key === 'Enter') open(results[active]);
    else if (e.key !== 'Tab') return; // Tab stays in the box: the dialog has one control
    e.preventDefault();
  };

  const status =
    search.status === 'idle'
      ? 'Type to search titles, text and comments. "a phrase", prefix*, title:word, OR, NOT.'
      : search.status === 'error'
        ? search.message
        : search.status === 'searching' && results.length === 0
          ? 'Searching…'
          : results.length === 0
            ? 'Nothing found. Try fewer words, or the start of a word.'
            : `${results.length === LIMIT ? `First ${LIMIT}` : results.length} result${results.length === 1 ? '' : 's'}. ↑ ↓ to choose, Enter to open, Esc to close.`;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes the dialog; Escape does the same from the keyboard.
    <div className="search-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="search-dialog" role="dialog" aria-modal="true" aria-label="Search pages and comments">
        <input
          ref={inputRef}
          className="search-input"
          type="text"
          role="combobox"
          aria-label="Search pages and comments"
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={results.length > 0 ? optionId(active) : undefined}
          placeholder="Search pages and comments…"
          spellCheck={false}
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <p className={`search-status small ${search.status === 'error' ? 'error' : 'muted'}`} role="status" aria-live="polite" data-testid="search-status">
          {status}
        </p>
        <div ref={listRef} className="search-results" id={listId} role="listbox" aria-label="Results">
          {results.map((r, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard chooses through the search box (aria-activedescendant); a click is the pointer's way.
            <div
              key={r.kind === 'page' ? `p:${r.spaceId}:${r.pageKey}` : `c:${r.replyId ?? r.commentId}`}
              id={optionId(i)}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className={`search-result${i === active ? ' active' : ''}`}
              onMouseMove={() => setActive(i)}
              onClick={() => open(r)}
            >
              <div className="search-result-head">
                <span className={`badge kind ${r.kind}`}>{r.kind === 'page' ? 'Page' : r.kind === 'reply' ? 'Reply' : 'Comment'}</span>
                <span className="search-title">{r.title || '(untitled)'}</span>
                <span className="muted small search-space">{r.spaceTitle}</span>
              </div>
              <div className="muted small search-where">{whereOf(r)}</div>
              {r.snippet.length > 0 && (
                <div className="search-snippet small">
                  <Snippet parts={r.snippet} />
                </div>
              )}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
