import { expect, test, type Page } from '@playwright/test';
import { navigation } from './support/drawer.ts';
import { saveScreenshot } from './support/screenshot.ts';
import { signInAs } from './support/sign-in.ts';

async function openInspector(page: Page): Promise<void> {
  const nav = navigation(page);
  const link = nav.getByRole('link', { name: 'Inspect Knowledge Graph', exact: true });
  if (!(await link.isVisible())) {
    await nav.getByRole('button', { name: 'KG Workbench', exact: true }).click();
  }
  await link.click();
  await expect(page).toHaveURL('/knowledge/inspect/graph');
  await expect(page.getByRole('banner')).toContainText('Inspect Knowledge Graph');
}

const vertexNames = (page: Page) =>
  page
    .locator('[data-vertex]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-vertex')));

test.describe('knowledge-graph inspector', () => {
  test.beforeEach(async ({ page }) => {
    await signInAs(page, 'medical@loopdesk.test');
  });

  test('draws the graph of a chosen condition and replaces it on the next choice', async ({
    page,
  }, testInfo) => {
    await openInspector(page);
    const condition = page.getByRole('combobox', { name: 'Condition' });
    await condition.click();
    // The dropdown lists every condition of the knowledge base, sorted by display name.
    const options = await page.getByRole('option').allInnerTexts();
    expect(options.length).toBeGreaterThanOrEqual(150);
    expect(options).toEqual(
      [...options].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })),
    );

    await condition.fill('appendicitis');
    await page.getByRole('option', { name: 'appendicitis', exact: true }).click();
    const graph = page.getByRole('figure', { name: 'Knowledge graph of appendicitis' });
    await expect(graph).toBeVisible();
    const vertexes = await vertexNames(page);
    expect(vertexes).toEqual(
      expect.arrayContaining(['LD:appendicitis', 'LD:rlq-pain', 'LD:system/digestive']),
    );
    // Directed edges with their labels.
    await expect(page.locator('[data-edge="LD:appendicitis>rlq-pain"]')).toHaveText('suggests');
    await expect(
      page.locator('[data-testid="rf__edge-LD:appendicitis>rlq-pain"] path.react-flow__edge-path'),
    ).toHaveAttribute('marker-end', /url\(/);
    await saveScreenshot(page, testInfo, 'knowledge-graph-appendicitis');

    await condition.fill('migraine');
    await page.getByRole('option', { name: 'migraine', exact: true }).click();
    await expect(page.getByRole('figure', { name: 'Knowledge graph of migraine' })).toBeVisible();
    await expect
      .poll(async () => vertexNames(page))
      .toEqual(expect.arrayContaining(['LD:migraine', 'LD:visual-aura']));
    expect(await vertexNames(page)).not.toContain('LD:appendicitis');

    // The choice is in the address: a reload draws the same graph.
    await expect(page).toHaveURL('/knowledge/inspect/graph?condition=LD%3Amigraine');
    await page.reload();
    await expect(page.getByRole('figure', { name: 'Knowledge graph of migraine' })).toBeVisible();
    await expect(condition).toHaveValue('migraine');
  });

  test('a graph call that fails shows the HTTP error', async ({ page }) => {
    await page.route('**/_subgraph?**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Internal Server Error', message: 'graph store down' }),
      }),
    );
    await openInspector(page);
    const condition = page.getByRole('combobox', { name: 'Condition' });
    await condition.fill('gout');
    await page.getByRole('option', { name: 'gout', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('graph store down');
  });
});
