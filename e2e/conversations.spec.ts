import { expect, test } from '@playwright/test';
import { findAndOpen, runIntake } from './support/conversations.ts';
import { signInAs } from './support/sign-in.ts';

/**
 * The conversation visualiser (issue 14): the assistant runs an intake; a medical user finds it
 * by the patient's name, opens it, and sees the memory drawn, the acuity ring, the differential
 * and the transcript; the conversation's access log shows the read.
 */

test('a medical user finds an intake by the patient’s name and reads it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const name = 'Imogen Quillfeather';
  await runIntake(request, { given: 'Imogen', family: 'Quillfeather' }, [
    ['OUT', 'Hello, what brings you here today?'],
    ['IN', 'I have had a pounding headache and a fever since yesterday. No cough.'],
    ['OUT', 'Anything else?'],
    ['IN', 'I feel sick and my neck is stiff.'],
  ]);
  await signInAs(page, 'medical@loopdesk.test');

  // The landing page: load progress, then Open once the ontology is in the browser's cache.
  await page.goto('/conversations');
  const progress = page.getByRole('region', { name: 'Load progress' });
  await expect(progress.getByText(/^Ontology: \d+ loaded$/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Open', exact: true })).toBeEnabled();

  await findAndOpen(page, name);

  // The memory graph is drawn on a canvas, with the patient and findings as nodes.
  const graph = page.getByRole('figure', { name: 'Memory graph' });
  await expect(graph.locator('canvas')).toBeVisible();
  // WebGL (SwiftShader under --disable-gpu) draws it in 3D; without WebGL it is drawn flat, and says so.
  const drawing = await graph.getAttribute('data-drawing');
  test.info().annotations.push({ type: 'drawing', description: drawing ?? '' });
  if (drawing === 'flat') {
    await expect(page.getByText(/drawn flat instead of in 3D/)).toBeVisible();
  }
  const box = await graph.locator('canvas').boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(100);
  const nodes = page.getByRole('list', { name: 'Memory nodes' });
  await expect(nodes.getByRole('button', { name: `Patient: ${name}` })).toBeVisible();
  await expect(nodes.getByRole('button', { name: /^Finding: fever/ })).toBeVisible();
  // Focusing a node says which.
  await nodes.getByRole('button', { name: /^Finding: fever/ }).click();
  await expect(page.getByText(/^Focused: Finding — fever/)).toBeVisible();

  // Network Data: the acuity ring and the differential; Quinn Chat: the transcript.
  const network = page.getByRole('region', { name: 'Network Data' });
  await expect(
    network.getByRole('img', { name: /^Acuity: (emergent|urgent|other)/ }),
  ).toBeVisible();
  await expect(
    network.getByRole('list', { name: 'Differential' }).getByRole('listitem').first(),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Quinn Chat' }).getByText('I feel sick and my neck is stiff.'),
  ).toBeVisible();

  // The clinical summary, composed from the memory and marked as not reviewed.
  await network.getByRole('button', { name: 'Clinical summary' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clinical summary' });
  await expect(
    dialog.getByText('Not reviewed: composed from the conversation memory'),
  ).toBeVisible();
  await expect(dialog.getByText(`Patient: ${name}.`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The audit trail shows the read.
  await page.getByRole('button', { name: 'Who read this conversation' }).click();
  const reads = page.getByRole('list', { name: 'Reads of this conversation' });
  await expect(
    reads.getByText(/medical@loopdesk\.test — conversation\.memory\.read \(success\)/).first(),
  ).toBeVisible();
});

test('a short or unknown conversation id is refused in the spec’s words', async ({ page }) => {
  await signInAs(page, 'medical@loopdesk.test');
  await page.goto('/conversations?id=abc');
  await expect(
    page.getByText('Loading a conversation needs an id longer than 3 characters.'),
  ).toBeVisible();
  await page.goto('/conversations?id=no-such-conversation&tenant=acme-clinic');
  await expect(
    page
      .getByRole('alert')
      .getByText(/^Conversation not found - /)
      .first(),
  ).toBeVisible();
});
