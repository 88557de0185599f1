import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import { writeReport } from './write-report.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/run');
const root = mkdtempSync(join(tmpdir(), 'autoforge-report-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const copy = (name: string): string => {
  const dir = join(root, name);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
};
const sectionOf = (html: string, id: string): string => {
  const start = html.indexOf(`<section class="card" id="${id}">`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
};

describe('writeReport', () => {
  it('writes <run-dir>/report.html with every section drawn from the fixture run', async () => {
    const dir = copy('full');
    const path = await writeReport(dir);
    expect(path).toBe(join(dir, 'report.html'));
    const html = readFileSync(path, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<title>AutoForge report — full</title>');
    expect(sectionOf(html, 'training').match(/<svg class="chart line-chart"/g)).toHaveLength(6);
    expect(sectionOf(html, 'ablation').match(/<svg class="chart /g)).toHaveLength(2);
    expect(sectionOf(html, 'ablation')).toContain('<table class="data">');
    expect(sectionOf(html, 'graph').match(/<svg class="diagram"/g)).toHaveLength(1);
    expect(sectionOf(html, 'blueprints').match(/<svg class="diagram"/g)).toHaveLength(4);
    expect(sectionOf(html, 'difficulty').match(/<svg class="chart bar-chart"/g)).toHaveLength(3);
    expect(sectionOf(html, 'trajectories').match(/<article class="traj/g)).toHaveLength(11);
    expect(html.includes('class="note-missing"')).toBe(false);
    expect(/NaN|Infinity/.test(html)).toBe(false);
  });

  it('is self-contained: no URL to fetch, one inline script allowed by its hash, nothing else', async () => {
    const html = readFileSync(await writeReport(copy('offline')), 'utf8');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/<link rel="stylesheet"/);
    expect(html).not.toMatch(/url\((?!#)/);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; [^"]*script-src &#39;sha256-[A-Za-z0-9+/]+=*&#39;/);
    // The only URLs are the SVG namespace and in-page anchors.
    const urls = html.match(/https?:\/\/[^"' )]+/g) ?? [];
    expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg']));
  });

  it('is deterministic: the same run directory gives byte-identical pages', async () => {
    const a = readFileSync(await writeReport(copy('same'), { out: join(root, 'a.html') }), 'utf8');
    const b = readFileSync(await writeReport(join(root, 'same'), { out: join(root, 'b.html') }), 'utf8');
    expect(a).toBe(b);
    // …wherever the directory lies.
    mkdirSync(join(root, 'elsewhere'));
    const c = readFileSync(await writeReport(cpSyncTo(join(root, 'same'), join(root, 'elsewhere', 'same'))), 'utf8');
    expect(c).toBe(a);
  });

  it('writes where --out says and uses the given title, escaped', async () => {
    const dir = copy('titled');
    const out = join(root, 'nested', 'deeper', 'r.html');
    expect(await writeReport(dir, { out, title: 'A <b>run</b>' })).toBe(out);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<title>A &lt;b&gt;run&lt;/b&gt;</title>');
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });

  it('resolves relative paths against the cwd option', async () => {
    copy('relative');
    expect(await writeReport('relative', { cwd: root, out: 'rel.html' })).toBe(join(root, 'rel.html'));
  });

  it('says which data is missing in each section when the run has only tasks', async () => {
    const dir = join(root, 'bare');
    mkdirSync(dir);
    cpSync(join(FIXTURE, 'tasks.jsonl'), join(dir, 'tasks.jsonl'));
    const html = readFileSync(await writeReport(dir), 'utf8');
    expect(sectionOf(html, 'training')).toContain('No metrics.jsonl yet');
    expect(sectionOf(html, 'ablation')).toContain('No ablation in this run directory');
    expect(sectionOf(html, 'graph')).toContain('No graph.json');
    expect(sectionOf(html, 'blueprints')).toContain('No blueprints.jsonl');
    expect(sectionOf(html, 'trajectories')).toContain('No trajectories.jsonl');
    // difficulty comes from the tasks themselves
    expect(sectionOf(html, 'difficulty').match(/<svg class="chart bar-chart"/g)).toHaveLength(3);
  });

  it('embeds ablation/ablation.svg as an image, sandboxed, instead of drawing the figure', async () => {
    const dir = copy('with-svg');
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>';
    writeFileSync(join(dir, 'ablation/ablation.svg'), svg);
    const html = readFileSync(await writeReport(dir), 'utf8');
    const ablation = sectionOf(html, 'ablation');
    expect(ablation).toContain(`<img class="figure-img" alt="ablation figure (ablation/ablation.svg)" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`);
    expect(ablation).not.toContain('<svg class="chart');
    expect(ablation).toContain('<table class="data">');
    expect(ablation.includes('alert(1)')).toBe(false);
  });

  it('embeds at most maxTrajectories trajectories and says so', async () => {
    const html = readFileSync(await writeReport(copy('capped'), { maxTrajectories: 4 }), 'utf8');
    expect(sectionOf(html, 'trajectories').match(/<article class="traj/g)).toHaveLength(4);
    expect(html).toContain('the first 4 of 11 are embedded');
    // the overview still counts them all
    expect(sectionOf(html, 'overview')).toContain('<div class="value">11</div><div class="label">trajectories</div>');
  });

  it('throws CliError E_INPUT for a directory without tasks.jsonl', async () => {
    await expect(writeReport(join(root, 'missing'))).rejects.toBeInstanceOf(CliError);
  });
});

function cpSyncTo(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  rmSync(join(to, 'report.html'), { force: true });
  return to;
}
