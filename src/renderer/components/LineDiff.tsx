import { Fragment, type ReactNode, useMemo } from 'react';
import { lineDiff } from '../lib/line-diff';

export type DiffMode = 'unified' | 'split';

interface Numbered {
  kind: 'same' | 'added' | 'removed';
  text: string;
  oldLine: number | null;
  newLine: number | null;
}

/** The diff's lines, each numbered on its side. */
function numbered(before: string, after: string): Numbered[] {
  let o = 0;
  let n = 0;
  return lineDiff(before, after).map((l) => ({
    ...l,
    oldLine: l.kind === 'added' ? null : ++o,
    newLine: l.kind === 'removed' ? null : ++n,
  }));
}

/** Side by side: a removed run beside the added run that replaced it, each line across from its counterpart. */
function paired(rows: Numbered[]): { left: Numbered | null; right: Numbered | null }[] {
  const out: { left: Numbered | null; right: Numbered | null }[] = [];
  for (let i = 0; i < rows.length; ) {
    if (rows[i]!.kind === 'same') {
      out.push({ left: rows[i]!, right: rows[i]! });
      i++;
      continue;
    }
    const removed: Numbered[] = [];
    const added: Numbered[] = [];
    while (i < rows.length && rows[i]!.kind === 'removed') removed.push(rows[i++]!);
    while (i < rows.length && rows[i]!.kind === 'added') added.push(rows[i++]!);
    for (let k = 0; k < Math.max(removed.length, added.length); k++) out.push({ left: removed[k] ?? null, right: added[k] ?? null });
  }
  return out;
}

const SIGN = { same: ' ', added: '+', removed: '−' } as const;
const WORDS = { same: '', added: 'added: ', removed: 'removed: ' } as const;

/**
 * A page's change line by line, unified or side by side, each line numbered; a line of the
 * page after the change can be chosen (`onLine`: to comment on it), and what goes under a line
 * (its threads, a comment being written) comes from `renderAt`.
 */
export function LineDiff(props: {
  before: string | null;
  after: string | null;
  label: string;
  mode: DiffMode;
  /** Lines shown as chosen (the block a comment being written goes on). */
  selected?: { start: number; end: number } | null;
  onLine?(line: number): void;
  renderAt?(line: number): ReactNode;
}) {
  const { mode, selected, onLine, renderAt } = props;
  const rows = useMemo(() => numbered(props.before ?? '', props.after ?? ''), [props.before, props.after]);
  const isSelected = (line: number | null) => line !== null && !!selected && selected.start <= line && line <= selected.end;
  const number = (line: number | null, side: 'old' | 'new') => {
    if (line === null) return <td className="diff-num" />;
    if (side === 'new' && onLine) {
      return (
        <td className="diff-num">
          <button type="button" className="line-button" aria-label={`Comment on line ${line}`} title={`Comment on line ${line}`} onClick={() => onLine(line)}>
            {line}
          </button>
        </td>
      );
    }
    return <td className="diff-num">{line}</td>;
  };
  const text = (row: Numbered | null, side = '') =>
    row === null ? (
      <td className={`diff-text empty ${side}`} colSpan={2} />
    ) : (
      <>
        <td className={`diff-sign ${row.kind} ${side}`} aria-hidden="true">
          {SIGN[row.kind]}
        </td>
        <td className={`diff-text ${row.kind} ${side}`}>
          <span className="sr-only">{WORDS[row.kind]}</span>
          {row.text || ' '}
        </td>
      </>
    );
  const extra = (line: number | null, span: number) => {
    const content = line !== null ? renderAt?.(line) : null;
    return content ? (
      <tr className="diff-extra">
        <td colSpan={span}>{content}</td>
      </tr>
    ) : null;
  };

  return (
    <table className={`line-diff ${mode}`} role="figure" aria-label={props.label} data-mode={mode}>
      <tbody>
        {mode === 'unified'
          ? rows.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a diff line has no identity but its place; the list is rebuilt whole.
              <Fragment key={i}>
                <tr className={`diff-line ${r.kind}${isSelected(r.newLine) ? ' selected' : ''}`} data-new-line={r.newLine ?? undefined}>
                  {number(r.oldLine, 'old')}
                  {number(r.newLine, 'new')}
                  {text(r)}
                </tr>
                {extra(r.newLine, 4)}
              </Fragment>
            ))
          : paired(rows).map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above.
              <Fragment key={i}>
                <tr className={`diff-pair${isSelected(p.right?.newLine ?? null) ? ' selected' : ''}`} data-new-line={p.right?.newLine ?? undefined}>
                  {number(p.left?.oldLine ?? null, 'old')}
                  {text(p.left, 'left')}
                  {number(p.right?.newLine ?? null, 'new')}
                  {text(p.right, 'right')}
                </tr>
                {extra(p.right?.newLine ?? null, 6)}
              </Fragment>
            ))}
      </tbody>
    </table>
  );
}
