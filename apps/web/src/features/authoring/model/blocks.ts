/** A piece of the document drawn as one row of the virtual list: [start, end) of the text. */
export interface Block {
  start: number;
  end: number;
}

/** Longest row before a line is cut at a space (a row is laid out as a whole). */
export const BLOCK_CHARS = 800;

/**
 * Cuts the text into rows for the virtual list (issue 13 item 4 "render only what is on screen"):
 * one per line ('\n' stays at the end of its row), lines longer than {@link BLOCK_CHARS} cut
 * after a space. Depends on the text only, so rows stay put while entities change.
 */
export function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const lineEnd = newline < 0 ? text.length : newline + 1;
    let end = lineEnd;
    if (end - start > BLOCK_CHARS) {
      const space = text.lastIndexOf(' ', start + BLOCK_CHARS);
      end = space > start ? space + 1 : start + BLOCK_CHARS;
    }
    blocks.push({ start, end });
    start = end;
  }
  if (blocks.length === 0) {
    blocks.push({ start: 0, end: 0 });
  }
  return blocks;
}

/** Index of the block holding `offset` (the last one for the end of the text). */
export function blockAt(blocks: readonly Block[], offset: number): number {
  let low = 0;
  let high = blocks.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((blocks[mid]?.start ?? 0) <= offset) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  return low;
}
