import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { saveScreenshot } from './support/screenshot.ts';
import { signInAs } from './support/sign-in.ts';

/**
 * Issue 13, end to end: a guideline document is prepared and approved (data preparation), then
 * Ann (annotator) applies automated recognition, annotates one span with the keyboard and one
 * with the mouse, links a concept, saves a draft, reopens it and submits it; Lee (another
 * holder of jobs:annotation:review) reviews and approves it, and the new relationship shows in
 * the knowledge-graph inspector around the document's concept.
 */

const TEXT = 'E2E guideline: adults with asthma may report fatigue and wheeze with night sweats.';

const chips = (page: Page) => page.locator('mark[data-entity-id]');
const chip = (page: Page, text: string) =>
  page.locator('mark[data-entity-id]', { hasText: new RegExp(`^${text}$`) });
const documentText = (page: Page) => page.getByRole('document', { name: /Document text/ });

/** Prepares and approves a text document with the concept asthma; answers its name. */
async function approvedDocument(page: Page, lee: Page): Promise<string> {
  const name = `e2e-authoring-${Date.now()}.txt`;
  await signInAs(page, 'experimental@loopdesk.test');
  await page.goto('/jobs/data-preparation');
  await page.getByLabel('Document file').setInputFiles({
    name,
    mimeType: 'text/plain',
    buffer: Buffer.from(TEXT),
  });
  await expect(page.getByRole('heading', { name: `Data Preparation Job: ${name}` })).toBeVisible({
    timeout: 20_000,
  });
  await page.getByLabel('Document Source').fill('E2E guideline body');
  await page.getByLabel('Concept').fill('asthma');
  await page.getByRole('option', { name: 'asthma', exact: true }).first().click();
  await page.getByRole('button', { name: 'SUBMIT' }).click();
  await expect(page.getByText('Successfully submitted document!')).toBeVisible();

  await signInAs(lee, 'lead@loopdesk.test');
  await lee.goto('/jobs/data-preparation');
  await lee.getByRole('tab', { name: 'Preparation review' }).click();
  await lee.getByRole('button', { name: new RegExp(name.replace(/\.txt$/, '')) }).click();
  await lee.getByRole('button', { name: 'APPROVE' }).click();
  await expect(lee.getByText('Successfully submitted document!')).toBeVisible();
  return name;
}

/** Opens the document's row of the Authoring Tasks list. */
async function openRow(page: Page, name: string, jobType: string): Promise<void> {
  await page.goto('/jobs/authoring-tasks');
  await page
    .getByRole('row', { name: new RegExp(`${name.replace(/\.txt$/, '')}.*, ${jobType}$`) })
    .click();
}

/** Chooses the first concept the entity form's picker offers for `text`. */
async function linkConcept(form: Locator, page: Page, text: string, option: RegExp) {
  await form.getByRole('combobox', { name: 'Concept' }).fill(text);
  await page.getByRole('option', { name: option }).first().click();
  await expect(form.getByRole('textbox', { name: 'CUI' })).not.toHaveValue('');
}

/** Selects `word` in the document text with a mouse drag. */
async function dragSelect(page: Page, word: string): Promise<void> {
  const box = await documentText(page).evaluate((root, target) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(target) ?? -1;
      if (at >= 0) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + target.length);
        // The word may wrap: from the first line's start to the last line's end.
        const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
        const first = rects[0];
        const last = rects[rects.length - 1];
        return first && last
          ? {
              left: first.left,
              top: first.top + first.height / 2,
              right: last.right,
              bottom: last.top + last.height / 2,
            }
          : null;
      }
    }
    return null;
  }, word);
  if (!box) {
    throw new Error(`${word} is not in the text`);
  }
  await page.mouse.move(box.left + 1, box.top);
  await page.mouse.down();
  await page.mouse.move(box.right - 1, box.bottom, { steps: 5 });
  await page.mouse.up();
}

test('annotate with recognition, keyboard and mouse; draft, submit, review, approve; the graph shows it', async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  // A context each (axe needs pages of a context of their own).
  const open = async (viewport = { width: 1400, height: 900 }) =>
    (await browser.newContext({ viewport })).newPage();
  const prep = await open();
  const lee = await open();
  const name = await approvedDocument(prep, lee);
  await prep.close();

  // Before: asthma has no link to night sweats in the knowledge graph.
  await lee.goto('/knowledge/inspect/graph?condition=LD%3Aasthma');
  await expect(lee.getByRole('figure', { name: 'Knowledge graph of asthma' })).toBeVisible();
  await expect(lee.locator('[data-edge="LD:asthma>night-sweats"]')).toHaveCount(0);

  const ann = await open();
  await signInAs(ann, 'annotator@loopdesk.test');
  await openRow(ann, name, 'annotation');
  await expect(ann.getByRole('heading', { name: name.replace(/\.txt$/, '') })).toBeVisible();
  await expect(ann.getByRole('banner')).toContainText('Annotation Task');

  // Automated recognition: chips in the automated colour.
  const recognition = ann.getByRole('checkbox', {
    name: 'Apply automated named entity recognition',
  });
  await recognition.check();
  await expect(chip(ann, 'fatigue')).toHaveAttribute('data-state', 'automated');
  await expect(chip(ann, 'fatigue')).toHaveCSS('background-color', 'rgb(98, 0, 238)');
  await saveScreenshot(ann, testInfo, 'authoring-recognised');

  // Keep 'fatigue' (annotated through its form); delete every other automated chip.
  await chip(ann, 'fatigue').dblclick();
  let form = ann.getByRole('dialog', { name: /Edit “fatigue”/ });
  await form.getByRole('combobox', { name: 'Category' }).click();
  await ann.getByRole('option', { name: 'Symptom', exact: true }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(chip(ann, 'fatigue')).toHaveAttribute('data-state', 'annotated');
  for (;;) {
    const others = ann.locator('mark[data-state="automated"]');
    if ((await others.count()) === 0) {
      break;
    }
    await others.first().dblclick();
    await ann.getByRole('dialog', { name: /Edit/ }).getByRole('button', { name: 'Delete' }).click();
    await ann
      .getByRole('dialog', { name: 'Delete annotation' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(ann.getByRole('dialog')).toHaveCount(0);
  }
  await expect(recognition).toBeDisabled();

  // Keyboard: move to 'wheeze', select it with Shift+Ctrl+Right, '7' picks Symptom.
  const text = documentText(ann);
  await text.focus();
  await ann.keyboard.press('Control+Home');
  const start = TEXT.indexOf('wheeze');
  for (let i = 0; i < start; i += 1) {
    await ann.keyboard.press('ArrowRight');
  }
  await ann.keyboard.press('Shift+Control+ArrowRight');
  await expect(ann.getByRole('menu', { name: 'Categories' })).toBeVisible();
  await ann.keyboard.press('7');
  await expect(chip(ann, 'wheeze')).toHaveAttribute('data-state', 'manual');
  // Enter opens its form; the concept picker sets the CUI.
  await ann.keyboard.press('Enter');
  form = ann.getByRole('dialog', { name: /Edit “wheeze”/ });
  await linkConcept(form, ann, 'wheez', /wheez/i);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(chip(ann, 'wheeze')).toHaveAttribute('data-state', 'annotated');

  // Mouse: drag over 'night sweats', click Symptom in the menu, double-click to link it.
  await dragSelect(ann, 'night sweats');
  const menu = ann.getByRole('menu', { name: 'Categories' });
  await expect(menu).toBeVisible();
  await menu.getByRole('menuitem', { name: /Symptom/ }).click();
  await chip(ann, 'night sweats').dblclick();
  form = ann.getByRole('dialog', { name: /Edit “night sweats”/ });
  await linkConcept(form, ann, 'night swe', /night sweats/i);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(chip(ann, 'night sweats')).toHaveAttribute('data-state', 'annotated');
  const table = ann.getByRole('table', { name: 'Annotated entities' });
  await table.getByRole('textbox', { name: 'Weight of night sweats' }).fill('High');
  await saveScreenshot(ann, testInfo, 'authoring-annotated');
  await expectNoSeriousAxeViolations(ann, 'the Annotation Task screen');

  // Save a draft, reopen it: the three annotations come back.
  await ann.getByRole('button', { name: 'SAVE AS DRAFT' }).click();
  await expect(ann.getByText('Successfully saved document as DRAFT')).toBeVisible();
  await expect(ann).toHaveURL('/jobs/authoring-tasks');
  await openRow(ann, name, 'annotation draft');
  await expect(chips(ann)).toHaveCount(3);
  await expect(ann.locator('mark[data-state="annotated"]')).toHaveCount(3);
  await expect(table.getByRole('textbox', { name: 'Weight of night sweats' })).toHaveValue('High');
  await ann.getByRole('button', { name: 'SUBMIT DOCUMENT' }).click();
  await expect(ann.getByText('Successfully submitted document!')).toBeVisible();
  await ann.close();

  // Lee reviews: every entity accepted, the document approved.
  await openRow(lee, name, 'annotation review');
  await expect(lee.getByRole('banner')).toContainText('Annotation Review');
  const entities = lee.getByRole('list', { name: 'Submitted entities' });
  await expect(entities.getByRole('listitem')).toHaveCount(3);
  await saveScreenshot(lee, testInfo, 'authoring-review');
  await expectNoSeriousAxeViolations(lee, 'the Annotation Review screen');
  await lee.getByRole('button', { name: 'APPROVE' }).click();
  await expect(
    lee.getByText('Annotations approved: they are in the knowledge base.'),
  ).toBeVisible();

  // The knowledge-graph inspector shows the new relationship at once.
  await lee.goto('/knowledge/inspect/graph?condition=LD%3Aasthma');
  await expect(lee.getByRole('figure', { name: 'Knowledge graph of asthma' })).toBeVisible();
  await expect(lee.locator('[data-edge="LD:asthma>night-sweats"]')).toBeVisible();
  await saveScreenshot(lee, testInfo, 'authoring-graph');
});
