import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  getKey(item: T): string;
  renderRow(item: T, active: boolean): ReactNode;
  onOpen?(item: T): void;
  label: string;
  /** Key of the item to show as current (e.g. the open thread). */
  selectedKey?: string | null;
  className?: string;
  testId?: string;
}

/**
 * A long list that renders only the rows in view (thousands of comments stay
 * fast) and is driven from the keyboard: arrows, Page Up/Down, Home/End, Enter.
 * The list is one tab stop; the active row is announced with aria-activedescendant.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, rowHeight, getKey, renderRow, onOpen, label, selectedKey, className, testId } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
  });

  useEffect(() => {
    if (active >= items.length) setActive(Math.max(0, items.length - 1));
  }, [items.length, active]);

  const move = (index: number) => {
    const next = Math.max(0, Math.min(items.length - 1, index));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight) / rowHeight) - 1);
    const target = targetIndex(e.key, active, page, items.length);
    if (target === null || items.length === 0) return;
    e.preventDefault();
    if (target === 'open') {
      const item = items[active];
      if (item !== undefined) onOpen?.(item);
    } else move(target);
  };

  const activeItem = items[active];
  const rowId = (item: T) => `row-${testId ?? 'list'}-${getKey(item)}`;
  return (
    <div
      ref={scrollRef}
      className={`vlist ${className ?? ''}`}
      role="listbox"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={activeItem !== undefined ? rowId(activeItem) : undefined}
      onKeyDown={onKeyDown}
      data-testid={testId}
    >
      <div className="vlist-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const item = items[v.index]!;
          const key = getKey(item);
          const isActive = v.index === active;
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox takes the keys (aria-activedescendant); options are not tab stops.
            // biome-ignore lint/a11y/useFocusableInteractive: as above, focus stays on the listbox.
            <div
              key={key}
              id={rowId(item)}
              role="option"
              aria-selected={selectedKey === key}
              className={`vrow${isActive ? ' active' : ''}${selectedKey === key ? ' selected' : ''}`}
              style={{ height: rowHeight, transform: `translateY(${v.start}px)` }}
              onClick={() => {
                setActive(v.index);
                onOpen?.(item);
              }}
            >
              {renderRow(item, isActive)}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** The row a key moves to (or 'open' for Enter); null for keys the list does not handle. */
function targetIndex(key: string, active: number, page: number, count: number): number | 'open' | null {
  switch (key) {
    case 'ArrowDown':
      return active + 1;
    case 'ArrowUp':
      return active - 1;
    case 'PageDown':
      return active + page;
    case 'PageUp':
      return active - page;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'Enter':
      return 'open';
    default:
      return null;
  }
}
