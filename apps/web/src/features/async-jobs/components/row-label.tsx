import type { CSSProperties, ReactNode } from 'react';

// Read by screen readers (and role queries), not shown: the column header says it already.
const hidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/** A field label in a table row: `Weight` on screen, `Weight of fever` to assistive technology. */
export function rowLabel(visible: string, row: string): ReactNode {
  return (
    <>
      {visible}
      <span style={hidden}>{` of ${row}`}</span>
    </>
  );
}
