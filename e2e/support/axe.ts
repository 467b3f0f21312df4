import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/** The WCAG 2.2 AA rule sets the portal is held to (issue 20, Proof). */
export const WCAG_22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

/** The impacts that fail a screen; minor and moderate findings are reported, not failed. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/** The little of an axe finding a failure message needs. */
interface Finding {
  id: string;
  impact?: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown; html: string; failureSummary?: string }[];
}

/** One line per finding and one per element, so that a failure says what to fix and where. */
function describe(findings: readonly Finding[]): string {
  return findings
    .map((finding) => {
      const nodes = finding.nodes
        .slice(0, 5)
        .map((node) => {
          const summary = (node.failureSummary ?? '').split('\n').slice(1, 2).join('').trim();
          const html = node.html.length > 160 ? `${node.html.slice(0, 160)}…` : node.html;
          return `    at ${JSON.stringify(node.target)} ${html}${summary ? `\n      ${summary}` : ''}`;
        })
        .join('\n');
      const more = finding.nodes.length > 5 ? `\n    … and ${finding.nodes.length - 5} more` : '';
      return `  [${finding.impact ?? 'unknown'}] ${finding.id}: ${finding.help} (${finding.helpUrl})\n${nodes}${more}`;
    })
    .join('\n');
}

/**
 * Waits until the page's finite animations and transitions are over (a spinner's never are):
 * findings of an element half-way through one (a drawer group opening, a button fading from
 * disabled to enabled as its data arrives) are about a state nobody sees for long.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.effect?.getComputedTiming().endTime === Infinity),
  );
}

/** axe's serious and critical findings on the page now, and the others. */
async function analyse(page: Page): Promise<{ failing: Finding[]; other: Finding[] }> {
  await settled(page);
  const { violations } = await new AxeBuilder({ page }).withTags([...WCAG_22_AA_TAGS]).analyze();
  return {
    failing: violations.filter((v) => FAILING_IMPACTS.has(v.impact ?? '')),
    other: violations.filter((v) => !FAILING_IMPACTS.has(v.impact ?? '')),
  };
}

/**
 * Runs axe-core over the page as it is now (WCAG 2.0, 2.1 and 2.2, levels A and AA) and fails
 * the test with a readable list when any finding is serious or critical. `label` names the screen
 * and its state in the message and in the report ("federated workbench with a job open").
 * A finding seen while something moved is checked again once it has settled. Minor and moderate
 * findings are attached to the report for people to read. The check is soft:
 * the test goes on to the next screen and fails at its end, with every screen's findings.
 *
 * Call it once the screen has settled (its content visible, no spinner), one line per state:
 *   await expectNoSeriousAxeViolations(page, 'exception desk with a conversation');
 */
export async function expectNoSeriousAxeViolations(page: Page, label: string): Promise<void> {
  let { failing, other } = await analyse(page);
  if (failing.length > 0) {
    // Something may have started moving while axe read the page (data arriving after the load):
    // once it has settled, ask again; a real finding is there both times.
    ({ failing, other } = await analyse(page));
  }
  if (other.length > 0) {
    await test.info().attach(`axe: ${label} (minor and moderate)`, {
      body: describe(other),
      contentType: 'text/plain',
    });
  }
  if (failing.length > 0) {
    // What the page looked like when axe ran, for a finding that depends on a passing state.
    await test.info().attach(`axe: ${label} (the page)`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: 'image/png',
    });
  }
  // Soft: a sweep over many screens reports every screen's findings in one run, and still fails.
  expect
    .soft(
      failing.length,
      `axe found serious or critical WCAG 2.2 AA issues on ${label}:\n${describe(failing)}`,
    )
    .toBe(0);
}
