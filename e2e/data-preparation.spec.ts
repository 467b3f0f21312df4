import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { signInAs } from './support/sign-in.ts';

/**
 * Issue 12 part 2, end to end: Eve (experimental) uploads a PDF, prepares it and submits it; Lee
 * (a second reviewer) approves it, and the approved prepared text is downloadable. Four eyes:
 * Eve could not have approved her own.
 */

async function guidelinePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf
    .addPage([400, 400])
    .drawText('E2E guideline: asthma in adults', { x: 40, y: 300, size: 12, font });
  return Buffer.from(await pdf.save());
}

test('a user uploads a PDF and prepares it; a second user approves it; the text downloads', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const name = `e2e-asthma-${Date.now()}.pdf`;

  // First, Eve uploads the PDF: the job opens with its extracted text.
  const eve = await browser.newPage();
  await signInAs(eve, 'experimental@loopdesk.test');
  await eve.goto('/jobs/data-preparation');
  await expect(eve.getByText(/There are \d+ registered jobs in the queue\./)).toBeVisible();
  await eve.getByLabel('Document file').setInputFiles({
    name,
    mimeType: 'application/pdf',
    buffer: await guidelinePdf(),
  });
  await expect(eve.getByRole('heading', { name: `Data Preparation Job: ${name}` })).toBeVisible({
    timeout: 20_000,
  });
  await expect(eve.getByLabel('Prepared Text')).toHaveValue(/E2E guideline: asthma in adults/);

  // She fills the form and submits it.
  await eve.getByLabel('Document Source').fill('E2E guideline body');
  await eve.getByLabel('Concept').fill('asthma');
  await eve.getByRole('option', { name: 'asthma', exact: true }).first().click();
  await expect(eve.getByLabel('CUI')).not.toHaveValue('');
  await eve.getByRole('button', { name: 'SUBMIT' }).click();
  await expect(eve.getByText('Successfully submitted document!')).toBeVisible();
  await eve.close();

  // Then Lee opens it from the preparation review list and approves it.
  const lee = await browser.newPage();
  await signInAs(lee, 'lead@loopdesk.test');
  await lee.goto('/jobs/data-preparation');
  await lee.getByRole('tab', { name: 'Preparation review' }).click();
  await lee.getByRole('button', { name: new RegExp(name.replace(/\.pdf$/, '')) }).click();
  await expect(
    lee.getByRole('heading', { name: `Data Preparation Review: ${name}` }),
  ).toBeVisible();
  await expect(lee.getByLabel('Extracted Text')).toHaveValue(/asthma in adults/);
  await lee.getByRole('button', { name: 'APPROVE' }).click();
  await expect(lee.getByText('Successfully submitted document!')).toBeVisible();

  // The approved prepared text is downloadable from the annotation list.
  await lee.getByRole('tab', { name: 'Annotation' }).click();
  await lee.getByRole('button', { name: new RegExp(name.replace(/\.pdf$/, '')) }).click();
  const downloading = lee.waitForEvent('download');
  await lee.getByRole('button', { name: /Download .*\.prepared\.approved\.txt/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.prepared\.approved\.txt$/);
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  expect(await readFile(path, 'utf8')).toContain('asthma in adults');
  await lee.close();
});
