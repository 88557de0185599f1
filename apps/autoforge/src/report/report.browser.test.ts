// report.html in a real browser: Debian's Chromium driven by playwright-core (which never
// downloads a browser). CI installs /usr/bin/chromium (.ci/run) and must run this test; a
// developer machine without it skips it with a message.
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from './write-report.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const hasChromium = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true' || process.env.CI === '1';
if (!hasChromium && !inCi) {
  console.warn(`report.browser.test.ts: skipped — ${CHROMIUM} is missing (install it with \`apt-get install chromium\`)`);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Share of the pixels of `box` that are not (near-)white: ink drawn by the page. */
function inkShare(png: PNG, box: Box): number {
  let ink = 0;
  let all = 0;
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(png.height, Math.ceil(box.y + box.height)); y++) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(png.width, Math.ceil(box.x + box.width)); x++) {
      const i = (y * png.width + x) * 4;
      all += 1;
      if (Math.min(png.data[i]!, png.data[i + 1]!, png.data[i + 2]!) < 225) ink += 1;
    }
  }
  return all === 0 ? 0 : ink / all;
}

/** Pixels of `box` close to `rgb` (a series colour). */
function colored(png: PNG, box: Box, [r, g, b]: [number, number, number]): number {
  let n = 0;
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(png.height, Math.ceil(box.y + box.height)); y++) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(png.width, Math.ceil(box.x + box.width)); x++) {
      const i = (y * png.width + x) * 4;
      if (Math.abs(png.data[i]! - r) + Math.abs(png.data[i + 1]! - g) + Math.abs(png.data[i + 2]! - b) < 60) n += 1;
    }
  }
  return n;
}

/** Page coordinates (not viewport ones) of every element matching `selector`. */
function boxes(page: Page, selector: string): Promise<Box[]> {
  return page.$$eval(selector, (elements) =>
    elements.map((e) => {
      const r = e.getBoundingClientRect();
      const view = globalThis as unknown as { scrollX: number; scrollY: number };
      return { x: r.x + view.scrollX, y: r.y + view.scrollY, width: r.width, height: r.height };
    }),
  );
}

describe('the browser test environment', () => {
  // Under CI a missing browser is a failure, never a silent skip.
  it.runIf(inCi)(`has Debian's Chromium at ${CHROMIUM} under CI`, () => {
    expect(hasChromium, `${CHROMIUM} is missing: .ci/run installs it with apt-get`).toBe(true);
  });
});

describe.skipIf(!hasChromium && !inCi)('report.html in headless Chromium', () => {
  const root = mkdtempSync(join(tmpdir(), 'autoforge-report-browser-'));
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`CI=true but ${CHROMIUM} is missing: .ci/run must install Debian's chromium before the tests`);
    const run = join(root, 'run');
    cpSync(join(import.meta.dirname, 'fixtures/run'), run, { recursive: true });
    const path = await writeReport(run);
    // playwright-core's launch gives the browser a fresh temporary profile (user-data-dir) and removes it on close.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('renders without console errors, page errors or any request beyond the file itself', async () => {
    expect(problems).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([]);
    expect(await page.title()).toBe('AutoForge report — run');
  });

  it('runs no script from the run data: hostile text shows as text', async () => {
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('main script, main img').count()).toBe(0);
    const text = await page.locator('#traj-10').textContent();
    expect(text).toContain('<script>window.__pwned = 1</script>');
    expect(text).toContain('<b>Sorry</b>!');
  });

  it('draws every chart and diagram with a non-zero size', async () => {
    const sized = async (selector: string): Promise<number> => {
      const found = await boxes(page, selector);
      for (const b of found) {
        expect(b.width, selector).toBeGreaterThan(0);
        expect(b.height, selector).toBeGreaterThan(0);
      }
      return found.length;
    };
    expect(await sized('#training svg.chart')).toBe(6);
    // one line per metric, and the injected-error share beside the masked share
    expect(await sized('#training path.series-line')).toBe(7);
    expect(await sized('#ablation svg.chart')).toBe(2);
    expect(await sized('#ablation rect.bar')).toBe(8);
    expect(await sized('#ablation path.series-band')).toBe(4);
    expect(await sized('#graph svg.diagram g.node')).toBe(8);
    expect(await sized('#graph svg.diagram path.edge-path')).toBe(20);
    expect(await sized('#blueprints svg.diagram')).toBe(4);
    expect(await sized('#blueprints g.node-reasoning')).toBeGreaterThan(0);
    // (a value no task has is a bar of height 0)
    expect(await sized('#difficulty rect.bar:not([height="0"])')).toBeGreaterThan(3);
    expect(await sized('article.traj.active .bubble')).toBeGreaterThan(2);
  });

  it('the screenshot shows the charts and diagrams drawn, not blank regions', async () => {
    const file = join(root, 'report.png');
    writeFileSync(file, await page.screenshot({ fullPage: true }));
    const png = PNG.sync.read(await page.screenshot({ fullPage: true }));
    expect(png.width).toBe(1280);
    const regions: [string, number][] = [
      ['#training svg.chart', 0.02],
      ['#ablation svg.chart', 0.02],
      ['#graph svg.diagram', 0.03],
      ['#blueprints svg.diagram', 0.03],
      ['#difficulty svg.chart', 0.03],
    ];
    for (const [selector, least] of regions) {
      for (const box of await boxes(page, selector)) {
        // A drawn chart is mostly white background; its axes, text, lines and bars are the ink.
        expect(inkShare(png, box), selector).toBeGreaterThan(least);
        expect(inkShare(png, box), selector).toBeLessThan(0.8);
      }
    }
    // The training curves are drawn in the first series colour (#0072b2), the W badges in #d55e00.
    const [success] = await boxes(page, '#training svg.chart');
    expect(colored(png, success!, [0x00, 0x72, 0xb2])).toBeGreaterThan(150);
    const [graph] = await boxes(page, '#graph svg.diagram');
    expect(colored(png, graph!, [0xd5, 0x5e, 0x00])).toBeGreaterThan(100);
    // …and a region with nothing drawn is indeed blank to this measure.
    const [title] = await boxes(page, '#training svg.chart .chart-bg');
    expect(inkShare(png, { x: title!.x + 420, y: title!.y + 4, width: 100, height: 10 })).toBe(0);
  });

  it('the trajectory viewer switches trajectories and filters them', async () => {
    await page.locator('.traj-item[data-target="traj-10"]').click();
    expect(await page.locator('article.traj.active').getAttribute('id')).toBe('traj-10');
    expect(await page.locator('article.traj.active .msg.evidence').count()).toBe(2);
    expect(await page.locator('article.traj:not(.active)').first().isVisible()).toBe(false);

    await page.selectOption('#filter-verdict', 'user-error');
    expect(await page.locator('.traj-list li:not([hidden])').count()).toBe(3);
    expect(await page.locator('#traj-count').textContent()).toBe('3 of 11 trajectories shown');
    await page.selectOption('#filter-reward', 'success');
    expect(await page.locator('.traj-list li:not([hidden])').count()).toBe(0);
    expect(await page.locator('article.traj.active').count()).toBe(0);
    await page.selectOption('#filter-verdict', 'all');
    await page.selectOption('#filter-reward', 'all');
    expect(await page.locator('.traj-list li:not([hidden])').count()).toBe(11);
    expect(await page.locator('article.traj.active').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('highlights the edges of a dependency-graph tool on hover', async () => {
    const node = page.locator('#graph g.node[data-node="get_guest_details"]');
    await node.scrollIntoViewIfNeeded();
    await node.hover();
    const lit = await page.locator('#graph g.edge.lit').count();
    const touching = await page.locator('#graph g.edge[data-from="get_guest_details"], #graph g.edge[data-to="get_guest_details"]').count();
    expect(lit).toBe(touching);
    expect(lit).toBeGreaterThan(0);
  });
});
