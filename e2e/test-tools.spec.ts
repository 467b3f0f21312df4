import { expect, test, type Page } from '@playwright/test';
import { navigation } from './support/drawer.ts';
import { saveScreenshot } from './support/screenshot.ts';
import { signInAs } from './support/sign-in.ts';

/** Opens a test tool from the drawer's Test group, as a medical reviewer would. */
async function openTool(page: Page, name: string, path: string): Promise<void> {
  const nav = navigation(page);
  const link = nav.getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) {
    await nav.getByRole('button', { name: 'Test', exact: true }).click();
  }
  await link.click();
  await expect(page).toHaveURL(path);
  await expect(page.getByRole('banner')).toContainText(name);
}

/** The chosen option of an Observation autocomplete row, found by typing `text`. */
async function chooseObservation(page: Page, row: number, text: string, option: string) {
  const field = page
    .getByRole('listitem', { name: `Observation ${row}` })
    .getByRole('combobox', { name: /Observation/ });
  await field.fill(text);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(field).toHaveValue(option);
}

/** The cells of a result table, once it shows (the prediction arrives after PREDICT). */
const tableRows = async (page: Page, name: string) => {
  const rows = page.getByRole('table', { name }).getByRole('row');
  await expect(rows.nth(1)).toBeVisible();
  return rows.evaluateAll((all) =>
    all.map((row) =>
      Array.from(row.querySelectorAll('th, td'), (cell) => (cell.textContent ?? '').trim()),
    ),
  );
};

test.describe('clinical test tools', () => {
  test.beforeEach(async ({ page }) => {
    await signInAs(page, 'medical@loopdesk.test');
  });

  test('entity recognition shows recognised and normalised entities and phrases as chips', async ({
    page,
  }, testInfo) => {
    await openTool(page, 'Entity Recognition', '/test/entity-recognition');
    const input = page.getByRole('textbox', { name: 'Input Text' });
    await expect(input).toHaveAttribute('placeholder', 'Enter text here');
    await expect(input).toHaveAttribute('rows', '6');
    await input.fill(
      'I have had a sore throat and a fever since yesterday, no cough. My tummy is swollen.',
    );
    await page.getByRole('button', { name: 'SUBMIT TEXT' }).click();

    const result = page.getByRole('region', { name: 'Named Entity Recognition Result' });
    await expect(result).toBeVisible();
    const legend = result.getByRole('group', { name: 'Legend' });
    await expect(legend).toContainText('Recognised Entity');
    await expect(legend).toContainText('Normalised Entity');

    const entities = result.getByRole('region', { name: 'Entities' });
    for (const chip of ['sore throat', 'fever', 'cough', 'tummy is swollen', 'since yesterday']) {
      await expect(entities.getByText(chip, { exact: true })).toBeVisible();
    }
    // A normalised entity's tooltip lists its concepts; an onset has none.
    await entities.getByText('tummy is swollen', { exact: true }).hover();
    await expect(page.getByRole('tooltip')).toContainText('Concept: swollen distended abdomen');
    await entities.getByText('since yesterday', { exact: true }).hover();
    await expect(
      page.getByRole('tooltip', { name: 'No matched concepts', exact: true }),
    ).toBeVisible();

    await result.getByRole('button', { name: 'Phrases' }).click();
    const phrases = result.getByRole('region', { name: 'Phrases' });
    await expect(phrases).toBeVisible();
    await expect(phrases).toContainText('I have had a sore throat and a fever since yesterday');
    await saveScreenshot(page, testInfo, 'test-tools-entity-recognition');
  });

  test('differential diagnosis ranks conditions from observations found by lay words', async ({
    page,
  }, testInfo) => {
    await openTool(page, 'Differential Diagnosis', '/test/differential-diagnosis');
    const predict = page.getByRole('button', { name: 'PREDICT' });
    await expect(predict).toBeDisabled();
    const add = page.getByRole('button', { name: 'ADD OBSERVATION' });

    await add.click();
    // Fewer than 3 characters load nothing.
    const first = page
      .getByRole('listitem', { name: 'Observation 1' })
      .getByRole('combobox', { name: /Observation/ });
    await first.fill('ri');
    await expect(page.getByText('Type at least 3 characters')).toBeVisible();
    await chooseObservation(page, 1, 'pain in my lower right', 'right lower abdominal pain');
    await add.click();
    await chooseObservation(page, 2, 'tummy sore', 'abdominal tenderness');
    await add.click();
    await chooseObservation(page, 3, 'feaver', 'fever');
    const weight = page
      .getByRole('listitem', { name: 'Observation 3' })
      .getByRole('spinbutton', { name: 'Weight' });
    await expect(weight).toHaveValue('1');
    await add.click();
    await page.getByRole('button', { name: 'Remove the last observation' }).click();
    await expect(page.getByRole('listitem', { name: 'Observation 4' })).toHaveCount(0);

    await predict.click();
    const prediction = await tableRows(page, 'Differential Diagnosis Prediction');
    expect(prediction[0]).toEqual(['Condition', 'Likelihood', 'Associated Observations']);
    // Appendicitis is emergent: marked so (issue 20 #26).
    expect(prediction[1]?.[0]).toBe('appendicitis Emergent');
    expect(prediction[1]?.[1]).toMatch(/^0\.\d\d$/);
    expect(prediction[1]?.[2]).toContain('right lower abdominal pain');
    const differentiating = await tableRows(page, 'Differentiating Observations');
    expect(differentiating[0]).toEqual(['Observation', 'Relevance']);
    expect(differentiating.length).toBeGreaterThan(2);
    expect(differentiating[1]?.[1]).toMatch(/^0\.\d\d$/);
    await saveScreenshot(page, testInfo, 'test-tools-differential-diagnosis');
  });

  test('clinical inference turns a text into deletable observation chips and predicts from them', async ({
    page,
  }, testInfo) => {
    await openTool(page, 'Clinical Inference', '/test/clinical-inference');
    const input = page.getByRole('textbox', { name: 'Input Text' });
    await expect(input).toHaveAttribute('rows', '5');
    await input.fill(
      'I have pain in my lower right tummy that started around my belly button. I have been throwing up and I have a fever. No diarrhoea. I have had a cough for a week.',
    );
    await page.getByRole('button', { name: 'SUBMIT TEXT' }).click();

    const chips = page.getByRole('list', { name: 'Selected observations' });
    for (const name of ['right lower abdominal pain', 'vomiting', 'fever', 'cough']) {
      await expect(chips.getByRole('button', { name, exact: true })).toBeVisible();
    }
    // Denied findings are offered as denied (issue 20 #26).
    await expect(chips.getByRole('button', { name: 'diarrhea', exact: true })).toHaveCount(0);
    await expect(chips.getByRole('button', { name: 'No diarrhea', exact: true })).toBeVisible();
    // The cough is incidental: delete its chip.
    await chips.getByRole('button', { name: 'cough', exact: true }).locator('svg').click();
    await expect(chips.getByRole('button', { name: 'cough', exact: true })).toHaveCount(0);

    const predicted = page.waitForRequest('**/clinical_inference/differential_diagnosis');
    await page.getByRole('button', { name: 'PREDICT' }).click();
    // The chips' display names only, without weights (spec 3 §4).
    const body = (await predicted).postDataJSON() as { observations: Record<string, unknown>[] };
    expect(
      body.observations.every(
        (o) =>
          Object.keys(o).join() === 'observation' ||
          (Object.keys(o).join() === 'observation,presence' && o.presence === 'deny'),
      ),
    ).toBe(true);
    expect(body.observations.map((o) => o.observation)).not.toContain('cough');
    const prediction = await tableRows(page, 'Differential Diagnosis Prediction');
    expect(prediction[1]?.[0]).toBe('appendicitis Emergent');
    await saveScreenshot(page, testInfo, 'test-tools-clinical-inference');
  });

  test("bad input says what to fix, and a patient's broad words find the conditions", async ({
    page,
  }) => {
    // An empty text is refused by the NLP service with its reason, not 'Service unavailable'.
    await openTool(page, 'Entity Recognition', '/test/entity-recognition');
    await page.getByRole('button', { name: 'SUBMIT TEXT' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'Bad Request - Invalid body: body.text must not be empty',
    );
    await page.getByRole('alert').getByRole('button', { name: 'Close' }).click();

    await openTool(page, 'Differential Diagnosis', '/test/differential-diagnosis');
    const add = page.getByRole('button', { name: 'ADD OBSERVATION' });
    await add.click();
    await chooseObservation(page, 1, 'tummy ache', 'abdominal pain');
    await add.click();
    await chooseObservation(page, 2, 'throwing up', 'vomiting');
    await add.click();
    await chooseObservation(page, 3, 'off my food', 'loss of appetite');
    const weight = page
      .getByRole('listitem', { name: 'Observation 3' })
      .getByRole('spinbutton', { name: 'Weight' });
    await weight.fill('-1');
    await expect(page.getByText('A number from 0 to 100')).toBeVisible();
    const predicted = page.waitForRequest('**/clinical_inference/differential_diagnosis', {
      timeout: 1_000,
    });
    await page.getByRole('button', { name: 'PREDICT' }).click();
    await expect(predicted).rejects.toThrow();
    await weight.fill('');

    await page.getByRole('button', { name: 'PREDICT' }).click();
    const prediction = await tableRows(page, 'Differential Diagnosis Prediction');
    // Appendicitis is written with right lower abdominal pain; 'tummy ache' still counts for it.
    expect(prediction[1]?.[0]).toBe('appendicitis Emergent');
    expect(prediction[1]?.[2]).toBe('abdominal pain, vomiting, loss of appetite');
    expect(prediction.slice(1, 4).map((row) => row[0])).toContain('gastroenteritis');
  });

  test('a failing service shows the messages of spec 3 §8', async ({ page }) => {
    await page.route('**/internal/nlp/evaluate', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Service Unavailable', message: 'down' }),
      }),
    );
    await page.route('**/clinical_inference/differential_diagnosis', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Service Unavailable', message: 'down' }),
      }),
    );
    await openTool(page, 'Entity Recognition', '/test/entity-recognition');
    await page.getByRole('textbox', { name: 'Input Text' }).fill('fever');
    await page.getByRole('button', { name: 'SUBMIT TEXT' }).click();
    await expect(page.getByRole('alert')).toContainText('Service unavailable');
    await expect(page.getByRole('button', { name: 'SUBMIT TEXT' })).toBeEnabled();

    await openTool(page, 'Differential Diagnosis', '/test/differential-diagnosis');
    await page.getByRole('button', { name: 'ADD OBSERVATION' }).click();
    await chooseObservation(page, 1, 'fever', 'fever');
    await page.getByRole('button', { name: 'PREDICT' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Clinical Inference' })).toContainText(
      'Clinical Inference service unavailable',
    );
  });
});
