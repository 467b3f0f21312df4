import { expect, test, type Locator, type Page } from '@playwright/test';
import { signInAs } from './support/sign-in.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The on-screen boxes of every node label and edge label of the graph. */
async function labelBoxes(graph: Locator): Promise<(Box & { text: string })[]> {
  return graph.locator('[data-graph-label]').evaluateAll((labels) =>
    labels.map((label) => {
      const rect = label.getBoundingClientRect();
      return {
        text: label.textContent ?? '',
        x: rect.x,
        y: rect.y,
        width: rect.width,
        height: rect.height,
      };
    }),
  );
}

/** The transform of the graph's viewport (what zoom and pan change). */
const viewport = (graph: Locator) =>
  graph.locator('.react-flow__viewport').evaluate((node) => getComputedStyle(node).transform);

async function drawAppendicitis(page: Page): Promise<Locator> {
  await page.goto('/knowledge/inspect/graph?condition=LD%3Aappendicitis');
  const graph = page.getByRole('figure', { name: 'Knowledge graph of appendicitis' });
  await expect(graph.locator('[data-vertex="LD:appendicitis"]')).toBeVisible();
  return graph;
}

test.beforeEach(async ({ page }) => {
  await signInAs(page, 'medical@loopdesk.test');
});

test('issue 20 #27: the inspector zooms and pans, and no two labels overlap', async ({ page }) => {
  const graph = await drawAppendicitis(page);

  // No label covers another, node names and edge names alike.
  const boxes = await labelBoxes(graph);
  expect(boxes.length).toBeGreaterThan(10);
  const clashes: string[] = [];
  boxes.forEach((a, i) =>
    boxes.slice(i + 1).forEach((b) => {
      if (overlap(a, b)) {
        clashes.push(`${a.text} / ${b.text}`);
      }
    }),
  );
  expect(clashes).toEqual([]);

  // Zoom in with the control, then pan by dragging the background.
  const before = await viewport(graph);
  await graph.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(() => viewport(graph)).not.toBe(before);
  const zoomed = await viewport(graph);
  const pane = graph.locator('.react-flow__pane');
  const area = await pane.boundingBox();
  if (!area) {
    throw new Error('no pane');
  }
  // From the top right corner (away from the nodes and the zoom buttons) to the left and down.
  await page.mouse.move(area.x + area.width - 20, area.y + 20);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width - 160, area.y + 80, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => viewport(graph)).not.toBe(zoomed);
  // Fit view brings the whole graph back.
  const panned = await viewport(graph);
  await graph.getByRole('button', { name: 'Fit view' }).click();
  await expect.poll(() => viewport(graph)).not.toBe(panned);
});

test('issue 20 #27: hovering a question shows it in full; the legend is in words', async ({
  page,
}) => {
  const graph = await drawAppendicitis(page);
  const question = graph.locator('[data-class="question"]').first();
  await expect(question).toBeVisible();
  await question.hover();
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toBeVisible();
  // The full question, not the 28-character cut of the label.
  expect(((await tooltip.textContent()) ?? '').length).toBeGreaterThan(28);
  await expect(tooltip).toContainText('Question');

  const legend = page.getByRole('list', { name: 'Vertex classes' });
  await expect(legend.getByRole('listitem').first()).toBeVisible();
  const words = await legend.getByRole('listitem').allInnerTexts();
  expect(words).toContain('Condition');
  expect(words).toContain('Body system');
  for (const word of words) {
    // Words, not codes: no camelCase identifiers.
    expect(word).not.toMatch(/[a-z][A-Z]/);
  }
});
