import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

/**
 * The rows of a table rendered only around the visible part of its scroll container (@tanstack/react-virtual): every
 * row `rowHeight` high, so nothing is measured while scrolling. `top` and `bottom` are the heights of the spacer rows
 * that stand for the rest, so the table keeps its semantics.
 */
export function useVirtualRows(count: number, keyOf: (index: number) => string, rowHeight: number, headerHeight: number) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    paddingStart: headerHeight,
    overscan: 6,
    getItemKey: keyOf,
    // Rows follow the scroll in React's own batch, not synchronously inside each scroll event.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const top = items.length ? items[0].start - headerHeight : 0;
  const bottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return { scrollRef, items, top, bottom };
}
