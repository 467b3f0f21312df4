import { expect, test, type Page } from '@playwright/test';
import { demoAccount } from './support/demo-accounts.ts';
import { expandAllGroups, navigation, visibleDrawerEntries } from './support/drawer.ts';
import { signInAs } from './support/sign-in.ts';

const ABE = 'approver@loopdesk.test';

/** On Ada's user management screen: Abe's roles form after searching him by email. */
async function abesRoles(page: Page) {
  await page.goto('/admin/user-management');
  await expect(page.getByRole('banner')).toContainText('User Management');
  const search = page.getByRole('search', { name: 'Find a user' });
  await search.getByLabel('Email or id').fill(ABE);
  await search.getByRole('button', { name: 'Search' }).click();
  const form = page.getByRole('form', { name: `Roles of ${ABE}` });
  await expect(form).toBeVisible();
  return form;
}

/** Ticks or unticks one of Abe's roles and saves; 'Saved.' confirms it. */
async function setAbesRole(page: Page, label: string, checked: boolean): Promise<void> {
  const form = await abesRoles(page);
  const box = form.getByRole('checkbox', { name: label, exact: true });
  if ((await box.isChecked()) === checked) {
    return;
  }
  await box.setChecked(checked);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
}

test("an admin gives a user a role: after a reload, that user's drawer shows the new screen", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // Abe Approver, in a browser of his own: Async Jobs only.
  const abeContext = await browser.newContext();
  const abe = await abeContext.newPage();
  try {
    await signInAs(abe, ABE);
    await expandAllGroups(abe);
    expect(await visibleDrawerEntries(abe)).toEqual(demoAccount(ABE).drawer);
    await expect(navigation(abe).getByRole('link', { name: 'Data Preparation' })).toHaveCount(0);

    // Ada Admin gives Abe the experimental role.
    await signInAs(page, 'admin@loopdesk.test');
    await setAbesRole(page, 'experimental', true);

    // Abe reloads: Data Preparation and Clinical Summary are in his drawer, and open.
    await abe.reload();
    await expandAllGroups(abe);
    await expect(navigation(abe).getByRole('link', { name: 'Data Preparation' })).toBeVisible();
    expect(await visibleDrawerEntries(abe)).toEqual({
      groups: ['Jobs'],
      links: ['Async Jobs', 'Clinical Summary', 'Data Preparation'],
    });
    await navigation(abe).getByRole('link', { name: 'Data Preparation' }).click();
    await expect(abe).toHaveURL(/\/jobs\/data-preparation$/);
    await expect(abe.getByText('This screen is not available yet.')).toHaveCount(0);

    // Ada takes the role back: after a reload Abe's drawer is as before.
    await setAbesRole(page, 'experimental', false);
    await abe.reload();
    await expandAllGroups(abe);
    await expect(navigation(abe).getByRole('link', { name: 'Data Preparation' })).toHaveCount(0);
    expect(await visibleDrawerEntries(abe)).toEqual(demoAccount(ABE).drawer);
  } finally {
    // Whatever failed, Abe keeps only his own roles.
    await setAbesRole(page, 'experimental', false).catch(() => undefined);
    await abeContext.close();
  }
});
