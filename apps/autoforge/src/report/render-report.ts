import { createHash } from 'node:crypto';
import type { Task, Verdict } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { Blueprint, ReasoningParams } from '@autoforge/dag-blueprint';
import { ablationConfigs, ablationFigure, meanStd } from './ablation-figure.js';
import { BLUEPRINT_COLORS, blueprintDiagram, pickBlueprints } from './blueprint-diagram.js';
import { dependencyGraphDiagram, GRAPH_COLORS } from './dependency-graph-diagram.js';
import { difficultyHistograms, taskDifficulty } from './difficulty-histograms.js';
import { escapeHtml } from './escape.js';
import type { RunData } from './load-run.js';
import { REPORT_SCRIPT } from './report-script.js';
import { REPORT_STYLE } from './report-style.js';
import { trainingCurves } from './training-curves.js';
import { trajectoryViewer } from './trajectory-viewer.js';

/** Options of {@link renderReport}. */
export interface RenderReportOptions {
  /** The page title. */
  title: string;
  /** How many blueprints to draw. Default 4. */
  blueprints?: number;
  /** How many trajectories the run has in all (the data may hold fewer). Default: as many as the data holds. */
  totalTrajectories?: number;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const fixed = (x: number): string => x.toFixed(3);

function section(id: string, title: string, body: string): string {
  return `<section class="card" id="${id}"><details open><summary><h2>${escapeHtml(title)}</h2></summary><div class="content">${body}</div></details></section>`;
}

const missing = (text: string): string => `<p class="note-missing">${escapeHtml(text)}</p>`;

function stat(value: string, label: string): string {
  return `<div class="stat"><div class="value">${escapeHtml(value)}</div><div class="label">${escapeHtml(label)}</div></div>`;
}

function swatch(label: string, colors: { fill: string; stroke: string }, extra = ''): string {
  return `<span><span class="swatch" style="background:${colors.fill};border-color:${colors.stroke}${extra}"></span>${escapeHtml(label)}</span>`;
}

function overview(data: RunData, verdicts: readonly Verdict[]): string {
  const stats: string[] = [stat(String(data.tasks.length), 'tasks')];
  if (data.blueprints.length > 0) {
    const accepted = data.blueprints.filter((b) => b.status === undefined || b.status === 'accepted').length;
    stats.push(stat(`${accepted} / ${data.blueprints.length}`, 'blueprints accepted'));
  }
  if (data.graph) stats.push(stat(`${data.graph.order} / ${data.graph.size}`, 'tools / dependency edges'));
  if (data.outcomes.length > 0) {
    const mean = data.outcomes.reduce((a, o) => a + o.reward, 0) / data.outcomes.length;
    const successes = data.outcomes.filter((o) => o.reward >= 1).length;
    stats.push(stat(String(data.outcomes.length), 'trajectories'));
    stats.push(stat(pct(successes / data.outcomes.length), `success rate (${successes} with reward 1)`));
    stats.push(stat(fixed(mean), 'mean reward'));
  }
  if (verdicts.length > 0) {
    const masked = verdicts.filter((v) => v.userError).length;
    stats.push(stat(pct(masked / verdicts.length), `masked by the judge (${masked} of ${verdicts.length} judged)`));
  }
  if (data.metrics.length > 0) {
    const iterations = new Set(data.metrics.map((m) => m.iteration)).size;
    stats.push(stat(String(iterations), 'training iterations'));
  }
  let out = `<div class="stats">${stats.join('')}</div>`;
  if (data.outcomes.length > 0) {
    const counts = new Map<string, number>();
    for (const o of data.outcomes) counts.set(o.termination, (counts.get(o.termination) ?? 0) + 1);
    const parts = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => `${k} ${n}`);
    out += `<p class="muted">terminations: ${escapeHtml(parts.join(' · '))}</p>`;
  }
  if (data.config) {
    const c = data.config;
    const line = ['command', 'tooldoc', 'seed', 'algo'].filter((k) => c[k] !== undefined && c[k] !== null).map((k) => `${k} ${JSON.stringify(c[k])}`);
    out += `<details><summary>run configuration${line.length ? ` — ${escapeHtml(line.join(' · '))}` : ''}</summary><pre>${escapeHtml(JSON.stringify(c, null, 2))}</pre></details>`;
  } else out += missing('No config.json in this run directory.');
  return out;
}

function trainingSection(data: RunData): string {
  const charts = trainingCurves(data.metrics);
  if (charts.length === 0) return missing('No metrics.jsonl yet: run `autoforge train` to record training curves.');
  return `<div class="charts">${charts.join('')}</div>`;
}

function ablationSection(data: RunData): string {
  let out = '';
  if (data.ablationSvg !== undefined) {
    // As an image, not inline markup: a figure file can then neither run script nor clash with the page's ids.
    const src = `data:image/svg+xml;base64,${Buffer.from(data.ablationSvg, 'utf8').toString('base64')}`;
    out += `<img class="figure-img" alt="ablation figure (ablation/ablation.svg)" src="${src}">`;
  } else if (data.ablation) {
    const charts = ablationFigure(data.ablation);
    out += charts.length > 0 ? `<div class="charts">${charts.join('')}</div>` : missing('ablation.json has no rows.');
  }
  if (data.ablation && data.ablation.rows.length > 0) {
    const rows = ablationConfigs(data.ablation)
      .map((c) => {
        const before = meanStd(c.rows.map((r) => r.heldOutBefore));
        const after = meanStd(c.rows.map((r) => r.heldOutAfter));
        return `<tr><td>${escapeHtml(c.label)}</td><td>${c.rows.length}</td><td>${fixed(before.mean)} ± ${fixed(before.std)}</td><td>${fixed(after.mean)} ± ${fixed(after.std)}</td><td>${(after.mean - before.mean >= 0 ? '+' : '') + fixed(after.mean - before.mean)}</td></tr>`;
      })
      .join('');
    out += `<table class="data"><thead><tr><th>configuration</th><th>seeds</th><th>held-out before</th><th>held-out after</th><th>gain</th></tr></thead><tbody>${rows}</tbody></table>`;
  }
  return out || missing('No ablation in this run directory: run `autoforge ablate` to compare ERPO/GRPO with and without the judge.');
}

function graphSection(data: RunData): string {
  if (!data.graph) return missing('No graph.json in this run directory.');
  const key =
    `<div class="key">${swatch('read tool', GRAPH_COLORS.read)}${swatch('write tool (W)', GRAPH_COLORS.write)}` +
    `${swatch('start tool (round ends): callable with what the user knows', GRAPH_COLORS.read, ';border-radius:8px')}` +
    '<span>arrow A → B: an output of A supplies a parameter of B · hover an arrow for its bindings, a tool for its parameters and edges</span></div>';
  return `<p class="muted">${data.graph.order} tools, ${data.graph.size} edges.</p>${key}<div class="diagram-wrap">${dependencyGraphDiagram(data.graph, { idPrefix: 'depgraph' })}</div>`;
}

function blueprintSection(data: RunData, count: number): string {
  if (data.blueprints.length === 0) return missing('No blueprints.jsonl in this run directory.');
  const picked = pickBlueprints(data.blueprints, count);
  const tasksOf = new Map<string, Task[]>();
  for (const t of data.tasks) {
    const id = t.metadata?.blueprintId;
    if (typeof id === 'string') tasksOf.set(id, [...(tasksOf.get(id) ?? []), t]);
  }
  const byId = new Map<string, Blueprint>(data.blueprints.map((b) => [b.id, b]));
  const key =
    `<div class="key">${swatch('tool call', BLUEPRINT_COLORS.tool)}${swatch('write (W)', BLUEPRINT_COLORS.write)}` +
    `${swatch('reasoning step', BLUEPRINT_COLORS.reasoning)}${swatch('fact only the user knows', BLUEPRINT_COLORS.user, ';border-radius:8px')}` +
    '<span>hover an arrow for the parameter it feeds</span></div>';
  let out = `<p class="muted">${picked.length} of ${data.blueprints.length} blueprints (accepted ones with reasoning steps first).</p>${key}`;
  picked.forEach((bp, i) => {
    const tasks = tasksOf.get(bp.id) ?? [];
    const d = tasks[0] ? taskDifficulty(tasks[0], byId) : undefined;
    const facts = [
      tasks.length > 0 ? `task ${tasks.map((t) => t.id).join(', ')}` : '',
      bp.status ? `status ${bp.status}` : '',
      d ? `${d.toolCalls} tool calls, depth ${d.depth}, ${d.reasoningNodes} reasoning` : '',
    ].filter(Boolean);
    out += `<div class="blueprint"><h3>${escapeHtml(bp.id)}</h3><p class="muted">${escapeHtml(facts.join(' · '))}</p>`;
    const intent = tasks[0]?.intent;
    if (typeof intent === 'string') out += `<div class="intent"><strong>intent</strong> ${escapeHtml(intent)}</div>`;
    const reasoning = tasks[0]?.metadata?.reasoning;
    const resolved = isJsonObject(reasoning) ? (reasoning as unknown as Record<string, ReasoningParams>) : {};
    out += `<div class="diagram-wrap">${blueprintDiagram(bp, { idPrefix: `bp${i}`, reasoning: resolved })}</div></div>`;
  });
  return out;
}

function difficultySection(data: RunData): string {
  const byId = new Map<string, Blueprint>(data.blueprints.map((b) => [b.id, b]));
  const { charts, counted } = difficultyHistograms(data.tasks, byId);
  if (charts.length === 0) return missing('No task records a difficulty (metadata.difficulty) and no blueprint is known for any task.');
  const note = counted < data.tasks.length ? ` (${data.tasks.length - counted} without a known difficulty)` : '';
  return `<p class="muted">${counted} tasks${escapeHtml(note)}.</p><div class="charts">${charts.join('')}</div>`;
}

function trajectorySection(data: RunData, verdicts: ReadonlyMap<string, Verdict>, total: number): string {
  if (data.trajectories.length === 0) return missing('No trajectories.jsonl in this run directory: run `autoforge rollout` to record episodes.');
  const tasks = new Map<string, Task>(data.tasks.map((t) => [t.id, t]));
  return trajectoryViewer(data.trajectories, { tasks, verdicts, total });
}

/** The `sha256-…` source of the page's script, for its Content-Security-Policy. */
function scriptHash(): string {
  return `sha256-${createHash('sha256').update(REPORT_SCRIPT, 'utf8').digest('base64')}`;
}

/**
 * The report as one self-contained HTML page: inline CSS, SVG drawn here, one small inline script,
 * and a Content-Security-Policy that allows nothing else (no network, no other script). Sections
 * without data say so. Same data → same bytes.
 */
export function renderReport(data: RunData, options: RenderReportOptions): string {
  const verdicts = new Map<string, Verdict>(data.verdicts.map((v) => [v.trajectoryId, v]));
  const total = options.totalTrajectories ?? Math.max(data.outcomes.length, data.trajectories.length);
  const sections: [string, string, string][] = [
    ['overview', 'Overview', overview(data, data.verdicts)],
    ['training', 'Training curves', trainingSection(data)],
    ['ablation', 'Ablation', ablationSection(data)],
    ['graph', 'Tool dependency graph', graphSection(data)],
    ['blueprints', 'Blueprints', blueprintSection(data, options.blueprints ?? 4)],
    ['difficulty', 'Task difficulty', difficultySection(data)],
    ['trajectories', 'Trajectories', trajectorySection(data, verdicts, total)],
  ];
  const csp = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src '${scriptHash()}'; base-uri 'none'; form-action 'none'`;
  return (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="generator" content="autoforge report">' +
    `<link rel="icon" href="data:,"><title>${escapeHtml(options.title)}</title><style>${REPORT_STYLE}</style></head>\n<body><main>` +
    `<h1>${escapeHtml(options.title)}</h1>` +
    `<nav class="toc">${sections.map(([id, title]) => `<a href="#${id}">${escapeHtml(title)}</a>`).join('')}</nav>` +
    sections.map(([id, title, body]) => section(id, title, body)).join('\n') +
    `</main>\n<script>${REPORT_SCRIPT}</script></body></html>\n`
  );
}
