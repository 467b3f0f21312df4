/**
 * bench/document: the Annotation Task screen (issue 13 item 4) in Chromium on a generated
 * 100,000-character document carrying 2,000 entities. Three figures, each from the input event
 * (or the mount call) to the moment the result is in the DOM and laid out, and to the next
 * animation frame:
 *
 *   - open: mounting the screen until its first rows are drawn;
 *   - selection → menu: letting go of Shift after Shift+Ctrl+Right until the category menu is there;
 *   - keystroke → chip: the digit '7' until the new chip is drawn.
 *
 * Peer in the same run: the same screen on the same text without entities (what the 2,000
 * entities cost). Prints `name: value` lines and ratios. Not a test: nothing asserts. Goal: open
 * under 1 s, each interaction under 16 ms.
 *
 *   npm run bench:document   (BENCH_ROUNDS, default 30; CHROMIUM_PATH, default /usr/bin/chromium)
 *
 * It builds a small page with Vite (apps/web/src/features/authoring/bench/harness.tsx: the
 * screen's workspace alone, no server) into a temporary directory and serves it on a free port.
 */
import { chromium, type Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const CHARS = 100_000;
const ENTITIES = 2_000;

interface Timing {
  dom: number;
  frame: number;
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** In the page: records input times, and waits for a selector's count to reach a number. */
const PAGE_HELPERS = `
  window.__last = 0;
  for (const type of ['keydown', 'keyup']) {
    document.addEventListener(type, () => { window.__last = performance.now(); }, true);
  }
  window.__arm = (selector, count, from) => {
    window.__pending = new Promise((resolve) => {
      const start = () => (from === undefined ? window.__last : from);
      const check = () => {
        if (document.querySelectorAll(selector).length < count) return false;
        document.body.offsetHeight; // layout
        const dom = performance.now() - start();
        requestAnimationFrame(() => resolve({ dom, frame: performance.now() - start() }));
        return true;
      };
      if (check()) return;
      const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
      observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    });
  };
`;

async function openTime(page: Page, entities: number): Promise<Timing> {
  return page.evaluate(
    async ({ chars, count }) => {
      const w = window as unknown as {
        __arm: (s: string, n: number, from: number) => void;
        __pending: Promise<Timing>;
        mountDocument: (c: number, e: number) => void;
        unmountDocument: () => void;
      };
      w.unmountDocument();
      const t0 = performance.now();
      w.__arm('[role="document"] [data-index]', 1, t0);
      w.mountDocument(chars, count);
      return w.__pending;
    },
    { chars: CHARS, count: entities },
  );
}

const arm = (page: Page, selector: string, count: number) =>
  page.evaluate(
    ([s, n]) => (window as unknown as { __arm: (s: string, n: number) => void }).__arm(s, n),
    [selector, count] as const,
  );
const settled = (page: Page) =>
  page.evaluate(() => (window as unknown as { __pending: Promise<Timing> }).__pending);

/** One run of the screen: open, then ROUNDS × (select a word → menu, '7' → chip). */
async function run(page: Page, entities: number) {
  const opens: Timing[] = [];
  for (let i = 0; i < 5; i += 1) {
    opens.push(await openTime(page, entities));
  }
  const menus: Timing[] = [];
  const chips: Timing[] = [];
  await page.locator('[role="document"]').focus();
  for (let round = 0; round < ROUNDS; round += 1) {
    // The caret is at the start of a free (even) word: select it.
    await page.keyboard.down('Shift');
    await page.keyboard.press('Control+ArrowRight');
    await arm(page, '[role="menu"]', 1);
    await page.keyboard.up('Shift');
    menus.push(await settled(page));
    const manual = await page.locator('mark[data-state="manual"]').count();
    await arm(page, 'mark[data-state="manual"]', manual + 1);
    await page.keyboard.press('7');
    chips.push(await settled(page));
    // On to the next free word: past this one and the (entity) word after it.
    await page.keyboard.press('Control+ArrowRight');
    await page.keyboard.press('Control+ArrowRight');
    await page.keyboard.press('ArrowRight');
  }
  return { opens, menus, chips };
}

function report(name: string, timings: readonly Timing[]) {
  const dom = timings.map((t) => t.dom);
  const frame = timings.map((t) => t.frame);
  const line = {
    p50: percentile(dom, 50),
    p95: percentile(dom, 95),
    frameP50: percentile(frame, 50),
    frameP95: percentile(frame, 95),
  };
  console.log(
    `${name}: DOM p50 ${line.p50.toFixed(1)} ms, p95 ${line.p95.toFixed(1)} ms; next frame p50 ${line.frameP50.toFixed(1)} ms, p95 ${line.frameP95.toFixed(1)} ms`,
  );
  return line;
}

async function main() {
  const out = mkdtempSync(path.join(tmpdir(), 'bench-document-'));
  try {
    await build({
      configFile: false,
      root: path.join(ROOT, 'bench', 'document'),
      base: './',
      logLevel: 'warn',
      plugins: [react()],
      build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
    });
    const server = createServer((request, response) => {
      const file = path.join(
        out,
        (request.url ?? '/').split('?')[0] === '/' ? 'index.html' : (request.url ?? ''),
      );
      try {
        const body = readFileSync(file);
        response.setHeader(
          'Content-Type',
          file.endsWith('.js')
            ? 'text/javascript'
            : file.endsWith('.css')
              ? 'text/css'
              : 'text/html',
        );
        response.end(body);
      } catch {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const results: Record<string, ReturnType<typeof report>> = {};
      console.log(
        `document: ${CHARS.toLocaleString('en')} characters; ${ROUNDS} rounds; Chromium ${browser.version()}`,
      );
      for (const [label, entities] of [
        ['peer (no entities)', 0],
        [`${ENTITIES.toLocaleString('en')} entities`, ENTITIES],
      ] as const) {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        await page.goto(`http://127.0.0.1:${port}/`);
        await page.evaluate(PAGE_HELPERS);
        const { opens, menus, chips } = await run(page, entities);
        results[`${label} open`] = report(`${label} open`, opens);
        results[`${label} selection → menu`] = report(`${label} selection → menu`, menus);
        results[`${label} keystroke → chip`] = report(`${label} keystroke → chip`, chips);
        await page.close();
      }
      for (const what of ['open', 'selection → menu', 'keystroke → chip']) {
        const withEntities = results[`${ENTITIES.toLocaleString('en')} entities ${what}`];
        const peer = results[`peer (no entities) ${what}`];
        if (withEntities && peer) {
          console.log(
            `ratio ${what} (2,000 entities / none), p50: ${(withEntities.p50 / peer.p50).toFixed(2)}×`,
          );
        }
      }
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

await main();
