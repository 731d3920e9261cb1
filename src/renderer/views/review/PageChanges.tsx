import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ActOutcomeVM, ChangeRequestDetailVM, PageDiffVM, ThreadVM } from '../../../shared/contract';
import { blockForLine } from '../../../shared/line-blocks';
import { ErrorNotice } from '../../components/ErrorNotice';
import { type DiffMode, LineDiff } from '../../components/LineDiff';
import { RenderedHtml } from '../../components/RenderedHtml';
import { Thread } from '../../components/Thread';
import { useQuery } from '../../hooks/use-query';
import { type CommentPlaceInput, NewComment } from './NewComment';
import { ViewedBox, ViewedCount } from './Viewed';

const MODE_KEY = 'quire.diffMode';

function savedMode(): DiffMode {
  try {
    return globalThis.localStorage?.getItem(MODE_KEY) === 'split' ? 'split' : 'unified';
  } catch {
    return 'unified';
  }
}

const NOT_TYPED = new Set(['radio', 'checkbox', 'button', 'submit', 'reset']);

/** A key typed into a field is the field's, not a shortcut (a radio button or a checkbox takes no text). */
const typing = (target: EventTarget | null): boolean => {
  const el = target as { tagName?: string; type?: string; isContentEditable?: boolean } | null;
  if (!el) return false;
  if (el.tagName === 'INPUT') return !NOT_TYPED.has(el.type ?? 'text');
  return el.isContentEditable === true || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT';
};

const pageElementId = (pageId: string) => `page-diff-${pageId.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/**
 * A change request's changed pages: each page's file before and after, unified or side by side
 * (the choice is remembered), with `n` and `p` (or the buttons) going to the next and previous
 * page; a line of a page after the change takes a comment (it goes on the block holding it),
 * and threads on a line show under it, outdated ones marked.
 */
export function PageChanges({
  detail,
  canComment,
  commentingPageId,
  place,
  onComment,
  onCommented,
  onCancel,
}: {
  detail: ChangeRequestDetailVM;
  canComment: boolean;
  /** The page whose whole-page comment form is open. */
  commentingPageId: string | null;
  place(page?: PageDiffVM): CommentPlaceInput;
  onComment(page: PageDiffVM): void;
  onCommented(o: ActOutcomeVM): void;
  onCancel(): void;
}) {
  const cr = detail.changeRequest;
  const [mode, setMode] = useState<DiffMode>(savedMode);
  const [opened, setOpened] = useState<Record<string, boolean>>({});
  const [current, setCurrent] = useState(-1);
  const pages = detail.diff;
  const chooseMode = (m: DiffMode) => {
    setMode(m);
    try {
      globalThis.localStorage?.setItem(MODE_KEY, m);
    } catch {
      // No storage: the choice lasts as long as the view.
    }
  };
  const go = useCallback(
    (step: 1 | -1) => {
      if (pages.length === 0) return;
      const next = current < 0 ? (step === 1 ? 0 : pages.length - 1) : Math.min(pages.length - 1, Math.max(0, current + step));
      const page = pages[next]!;
      setCurrent(next);
      setOpened((o) => ({ ...o, [page.pageId]: true }));
      const el = globalThis.document?.getElementById(pageElementId(page.pageId));
      el?.scrollIntoView({ block: 'start' });
      (el?.querySelector('.page-diff-head') as { focus?(): void } | null)?.focus?.();
    },
    [pages, current],
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key === 'n') go(1);
      else if (e.key === 'p') go(-1);
    };
    globalThis.addEventListener('keydown', onKey);
    return () => globalThis.removeEventListener('keydown', onKey);
  }, [go]);
  const threadsOf = useMemo(() => {
    const byPage = new Map<string, ThreadVM[]>();
    for (const t of detail.threads) if (t.pageId && t.line !== undefined) byPage.set(t.pageId, [...(byPage.get(t.pageId) ?? []), t]);
    return byPage;
  }, [detail.threads]);

  return (
    <section aria-label="Changed pages">
      <div className="section-head diff-toolbar">
        <h3>
          Changed pages ({pages.length}) <ViewedCount diff={pages} />
        </h3>
        <div className="diff-mode" role="radiogroup" aria-label="How to show changed lines">
          <label>
            <input type="radio" name={`diff-mode-${cr.id}`} checked={mode === 'unified'} onChange={() => chooseMode('unified')} /> Unified
          </label>
          <label>
            <input type="radio" name={`diff-mode-${cr.id}`} checked={mode === 'split'} onChange={() => chooseMode('split')} /> Side by side
          </label>
        </div>
        {pages.length > 1 && (
          <span className="page-nav">
            <button type="button" aria-keyshortcuts="p" title="Previous changed page (p)" disabled={current <= 0} onClick={() => go(-1)}>
              Previous page
            </button>
            <span className="muted small" data-testid="page-position">
              {current < 0 ? `${pages.length} pages` : `Page ${current + 1} of ${pages.length}`}
            </span>
            <button type="button" aria-keyshortcuts="n" title="Next changed page (n)" disabled={current >= pages.length - 1} onClick={() => go(1)}>
              Next page
            </button>
          </span>
        )}
      </div>
      {pages.length === 0 && <p className="muted">No page differs from the base.</p>}
      {pages.map((d, i) => (
        <PageDiff
          key={d.pageId}
          diff={d}
          mode={mode}
          current={i === current}
          open={opened[d.pageId] ?? (d.change === 'modified' || d.change === 'added')}
          onToggle={(open) => setOpened((o) => ({ ...o, [d.pageId]: open }))}
          threads={threadsOf.get(d.pageId) ?? []}
          spaceId={cr.spaceId}
          changeRequestId={cr.id}
          commenting={commentingPageId === d.pageId}
          canComment={canComment}
          place={place(d)}
          onComment={() => onComment(d)}
          onCommented={onCommented}
          onCancel={onCancel}
        />
      ))}
    </section>
  );
}

function PageDiff(props: {
  diff: PageDiffVM;
  mode: DiffMode;
  current: boolean;
  open: boolean;
  onToggle(open: boolean): void;
  threads: ThreadVM[];
  spaceId: string;
  changeRequestId: string;
  commenting: boolean;
  canComment: boolean;
  place: CommentPlaceInput;
  onComment(): void;
  onCommented(o: ActOutcomeVM): void;
  onCancel(): void;
}) {
  const { diff, spaceId, changeRequestId, open, threads } = props;
  const [rendered, setRendered] = useState(false);
  /** The line a comment is being written on, and the block's lines it goes on. */
  const [onLine, setOnLine] = useState<{ line: number; start: number; end: number } | null>(null);
  const [lineError, setLineError] = useState<string | null>(null);
  const lines = diff.after === null ? [] : diff.after.split('\n');
  const chooseLine = (line: number) => {
    const block = blockForLine(diff.blocks ?? [], line);
    if (!block && (diff.blocks ?? []).length > 0) {
      setLineError(`Line ${line} is the page's frontmatter or title: comment on a line of its body, or on the whole page.`);
      return;
    }
    setLineError(null);
    setOnLine({ line, start: block?.start ?? line, end: block?.end ?? line });
  };
  const atLine = useMemo(() => {
    const by = new Map<number, ThreadVM[]>();
    for (const t of threads) if (typeof t.line === 'number') by.set(t.line, [...(by.get(t.line) ?? []), t]);
    return by;
  }, [threads]);
  const gone = threads.filter((t) => t.line === null);
  const renderAt = (line: number) => {
    const here = atLine.get(line) ?? [];
    const writing = onLine && onLine.end === line;
    if (here.length === 0 && !writing) return null;
    return (
      <div className="line-threads" data-testid={`line-threads-${line}`}>
        {here.map((t) => (
          <Thread key={t.id} thread={t} compact />
        ))}
        {writing && (
          <NewComment
            fixed={{ ...props.place, line: onLine.line }}
            initial=""
            suggestFrom={lines.slice(onLine.start - 1, onLine.end)}
            onDone={(o) => {
              setOnLine(null);
              props.onCommented(o);
            }}
            onCancel={() => setOnLine(null)}
          />
        )}
      </div>
    );
  };
  return (
    <div
      className={`page-diff ${diff.change}${props.current ? ' current' : ''}`}
      id={pageElementId(diff.pageId)}
      data-testid={`page-diff-${diff.pageId}`}
      aria-current={props.current ? 'true' : undefined}
    >
      <div className="page-diff-bar">
        <button type="button" className="page-diff-head" aria-expanded={open} onClick={() => props.onToggle(!open)}>
          <span className={`badge change ${diff.change}`}>{diff.relocation && diff.change === 'moved' ? diff.relocation : diff.change}</span>
          <span className="page-diff-title">{diff.title}</span>
          <span className="muted small page-diff-path">
            {diff.previousPath && diff.previousPath !== diff.path ? `${diff.previousPath} → ` : ''}
            {diff.path ?? ''}
          </span>
          <span className="diff-stat">
            <span className="added">+{diff.linesAdded}</span> <span className="removed">−{diff.linesRemoved}</span>
          </span>
        </button>
        <button type="button" className="link small" disabled={!props.canComment} onClick={props.onComment} aria-label={`Comment on ${diff.title}`}>
          Comment
        </button>
        <ViewedBox spaceId={spaceId} changeRequestId={changeRequestId} page={diff} />
      </div>
      {props.commenting && <NewComment fixed={props.place} onDone={props.onCommented} onCancel={props.onCancel} />}
      {open && (
        <div className="diff-mode" role="radiogroup" aria-label={`How to show the changes to ${diff.title}`}>
          <label>
            <input type="radio" checked={!rendered} onChange={() => setRendered(false)} /> Text
          </label>
          <label>
            <input type="radio" checked={rendered} onChange={() => setRendered(true)} /> Rendered, side by side
          </label>
        </div>
      )}
      {lineError && (
        <p className="notice warn small" role="alert">
          {lineError}
        </p>
      )}
      {open && !rendered && (diff.before !== null || diff.after !== null) && (
        <LineDiff
          before={diff.before}
          after={diff.after}
          label={`Changes to ${diff.title}`}
          mode={props.mode}
          selected={onLine}
          {...(props.canComment && diff.after !== null ? { onLine: chooseLine } : {})}
          renderAt={renderAt}
        />
      )}
      {open && rendered && <RenderedDiff spaceId={spaceId} changeRequestId={changeRequestId} pageId={diff.pageId} title={diff.title} />}
      {open && gone.length > 0 && (
        <div className="outdated-threads" data-testid="outdated-threads">
          <h4 className="small">Outdated: their lines are not in the page any more</h4>
          {gone.map((t) => (
            <Thread key={t.id} thread={t} compact />
          ))}
        </div>
      )}
    </div>
  );
}

/** The page before and after, rendered as GitBook shows it (the host's renderer, sanitised). */
function RenderedDiff({ spaceId, changeRequestId, pageId, title }: { spaceId: string; changeRequestId: string; pageId: string; title: string }) {
  const sides = useQuery('review.renderedDiff', { spaceId, changeRequestId, pageId }, ['review']);
  return (
    <div className="rendered-diff" role="figure" aria-label={`${title}, before and after`} data-testid="rendered-diff">
      <ErrorNotice error={sides.error} />
      {sides.data && (
        <>
          <div>
            <h4>Before</h4>
            {sides.data.before === null ? <p className="muted">(new page)</p> : <RenderedHtml html={sides.data.before} />}
          </div>
          <div>
            <h4>After</h4>
            {sides.data.after === null ? <p className="muted">(deleted)</p> : <RenderedHtml html={sides.data.after} />}
          </div>
        </>
      )}
    </div>
  );
}
