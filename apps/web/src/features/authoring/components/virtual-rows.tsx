import type { Virtualizer } from '@tanstack/react-virtual';
import type { ReactNode } from 'react';

/**
 * The rows of a virtualised list that are on screen, each placed where the virtualizer says, in a
 * box as tall as all of them (fixed-height rows: the tables of this feature).
 */
export function VirtualRows<T>({
  virtualizer,
  items,
  keyOf,
  children,
}: {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  items: readonly T[];
  keyOf: (item: T) => string;
  children: (item: T, index: number) => ReactNode;
}) {
  return (
    <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
      {virtualizer.getVirtualItems().map((virtual) => {
        const item = items[virtual.index];
        return item === undefined ? null : (
          <div
            key={keyOf(item)}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              width: '100%',
              transform: `translateY(${virtual.start}px)`,
            }}
          >
            {children(item, virtual.index)}
          </div>
        );
      })}
    </div>
  );
}
