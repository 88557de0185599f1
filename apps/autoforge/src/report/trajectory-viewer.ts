import type { InjectedUserError, Message, Task, ToolCall, ToolStep, Trajectory, Verdict } from '@autoforge/core';
import { escapeHtml, truncate } from './escape.js';

/** Options of {@link trajectoryViewer}. */
export interface TrajectoryViewerOptions {
  /** Tasks by id (for the intent and the reference solution). */
  tasks: ReadonlyMap<string, Task>;
  /** Verdicts by trajectory id. */
  verdicts: ReadonlyMap<string, Verdict>;
  /** How many trajectories the run has in all (the viewer may hold fewer). Default: as many as given. */
  total?: number;
  /** Longest text shown of one message, tool argument or result; the rest is cut with a note. Default 4000. */
  maxChars?: number;
}

/** The filter class of a trajectory's reward: `success` for reward ≥ 1, `failure` otherwise. */
export function rewardClass(t: Trajectory): 'success' | 'failure' {
  return t.reward >= 1 ? 'success' : 'failure';
}

/** The filter class of a trajectory's verdict. */
export function verdictClass(verdict: Verdict | undefined): 'user-error' | 'clean' | 'unjudged' {
  if (!verdict) return 'unjudged';
  return verdict.userError ? 'user-error' : 'clean';
}

const text = (value: string, max: number): string => escapeHtml(truncate(value, max));

/** JSON text pretty-printed when it parses to an object or array, else as it is. */
function pretty(raw: string): { text: string; parsed: boolean } {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null) return { text: JSON.stringify(value, null, 2), parsed: true };
    return { text: raw, parsed: true };
  } catch {
    return { text: raw, parsed: false };
  }
}

function toolCallHtml(call: ToolCall, max: number): string {
  const args = pretty(typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments));
  return (
    `<div class="tool-call"><div class="tool-call-head"><span class="tag tag-call">call</span> <code class="tool-name">${escapeHtml(String(call.name))}</code>` +
    ` <span class="muted">${escapeHtml(String(call.id))}</span>${args.parsed ? '' : ' <span class="tag tag-error">unparsable arguments</span>'}</div>` +
    `<pre class="args">${text(args.text, max)}</pre></div>`
  );
}

/** A call the user made on its own tools (tau2's dual control), with its result. */
function userStepHtml(step: ToolStep, max: number): string {
  const result = step.result;
  const body = result.ok ? pretty(JSON.stringify(result.output ?? null)).text : `${String(result.error.code)}: ${String(result.error.message)}`;
  return (
    `<div class="msg msg-user-tool${result.ok ? '' : ' tool-error'}"><div class="who">user's own tool</div>${toolCallHtml(step.call, max)}` +
    `<pre class="result">${text(body, max)}</pre>${result.ok ? '' : '<span class="tag tag-error">error</span>'}</div>`
  );
}

function notes(index: number, verdict: Verdict | undefined, injected: readonly InjectedUserError[]): { classes: string[]; html: string } {
  const classes: string[] = [];
  let html = '';
  for (const e of injected.filter((x) => x.messageIndex === index)) {
    classes.push('injected');
    html += `<div class="note note-injected"><span class="tag tag-injected">injected ${escapeHtml(String(e.kind))}</span> ${escapeHtml(JSON.stringify(e.detail ?? {}))}</div>`;
  }
  for (const e of (verdict?.evidence ?? []).filter((x) => x.messageIndex === index)) {
    classes.push('evidence');
    html += `<div class="note note-evidence"><span class="tag tag-evidence">verdict evidence</span> ${escapeHtml(String(e.note))}</div>`;
  }
  return { classes: [...new Set(classes)], html };
}

function messageHtml(m: Message, index: number, id: string, context: { calls: Map<string, ToolCall>; verdict: Verdict | undefined; injected: readonly InjectedUserError[]; max: number }): string {
  const { classes, html: noteHtml } = notes(index, context.verdict, context.injected);
  const anchor = `${id}-m-${index}`;
  const label = `<a class="msg-index" href="#${anchor}">#${index}</a>`;
  const cls = (base: string): string => [base, ...classes].join(' ');
  switch (m.role) {
    case 'system':
      return `<details class="${cls('msg msg-system')}" id="${anchor}"><summary>${label} system prompt</summary><pre>${text(String(m.content), context.max)}</pre>${noteHtml}</details>`;
    case 'user':
      return `<div class="${cls('msg msg-user')}" id="${anchor}"><div class="who">${label} user</div><div class="bubble">${text(String(m.content), context.max)}</div>${noteHtml}</div>`;
    case 'assistant': {
      const calls = Array.isArray(m.toolCalls) ? m.toolCalls : [];
      const content = typeof m.content === 'string' && m.content !== '' ? `<div class="bubble">${text(m.content, context.max)}</div>` : '';
      return (
        `<div class="${cls('msg msg-assistant')}" id="${anchor}"><div class="who">${label} assistant</div>${content}` +
        `${calls.map((c) => toolCallHtml(c, context.max)).join('')}${noteHtml}</div>`
      );
    }
    case 'tool': {
      const call = context.calls.get(m.toolCallId);
      const body = pretty(String(m.content));
      const error = m.isError === true;
      return (
        `<div class="${cls(`msg msg-tool${error ? ' tool-error' : ''}`)}" id="${anchor}"><div class="who">${label} result of ` +
        `<code class="tool-name">${escapeHtml(call ? String(call.name) : '?')}</code> <span class="muted">${escapeHtml(String(m.toolCallId))}</span>` +
        `${error ? ' <span class="tag tag-error">error</span>' : ''}</div><pre class="result">${text(body.text, context.max)}</pre>${noteHtml}</div>`
      );
    }
    default: {
      const unknown = m as { role?: unknown; content?: unknown };
      return `<div class="${cls('msg msg-other')}" id="${anchor}"><div class="who">${label} ${escapeHtml(String(unknown.role))}</div><pre>${text(JSON.stringify(unknown.content ?? null), context.max)}</pre>${noteHtml}</div>`;
    }
  }
}

function verdictHtml(id: string, verdict: Verdict | undefined): string {
  if (!verdict) return '<div class="verdict verdict-none">not judged</div>';
  const kinds = Array.isArray(verdict.kinds) && verdict.kinds.length > 0 ? verdict.kinds.map(String).join(', ') : '—';
  const evidence = (Array.isArray(verdict.evidence) ? verdict.evidence : [])
    .map((e) => `<li><a href="#${id}-m-${Number(e.messageIndex)}">message #${Number(e.messageIndex)}</a>: ${escapeHtml(String(e.note))}</li>`)
    .join('');
  return (
    `<div class="verdict ${verdict.userError ? 'verdict-user-error' : 'verdict-clean'}">` +
    `<div><strong>verdict</strong> (${escapeHtml(String(verdict.judge))}): ` +
    `${verdict.userError ? '<span class="tag tag-error">user error — masked</span>' : '<span class="tag tag-ok">no user error</span>'}` +
    ` · blame <strong>${escapeHtml(String(verdict.blame))}</strong> · kinds ${escapeHtml(kinds)}</div>` +
    `${evidence ? `<ul class="evidence-list">${evidence}</ul>` : ''}</div>`
  );
}

function trajectoryHtml(t: Trajectory, index: number, options: TrajectoryViewerOptions, active: boolean): string {
  const id = `traj-${index}`;
  const max = options.maxChars ?? 4000;
  const verdict = options.verdicts.get(t.id);
  const injected = Array.isArray(t.injectedUserErrors) ? t.injectedUserErrors : [];
  const calls = new Map<string, ToolCall>();
  for (const m of t.messages) if (m.role === 'assistant' && Array.isArray(m.toolCalls)) for (const c of m.toolCalls) calls.set(c.id, c);
  const task = options.tasks.get(t.taskId);
  const meta = t.metadata ?? {};
  const who = [typeof meta.agent === 'string' ? `agent ${meta.agent}` : '', typeof meta.user === 'string' ? `user ${meta.user}` : ''].filter(Boolean).join(' · ');
  const steps = Array.isArray(t.steps) ? t.steps : [];
  const failedSteps = steps.filter((s) => s.result && s.result.ok === false).length;
  let out = `<article class="traj${active ? ' active' : ''}" id="${id}" data-trajectory="${escapeHtml(t.id)}">`;
  out += `<header><h3>${escapeHtml(t.id)}</h3><div class="traj-meta">`;
  out += `<span class="tag ${rewardClass(t) === 'success' ? 'tag-ok' : 'tag-error'}">reward ${escapeHtml(String(t.reward))}</span> `;
  out += `<span class="tag">termination ${escapeHtml(String(t.termination))}</span> `;
  out += `<span class="tag">${steps.length} tool call${steps.length === 1 ? '' : 's'}${failedSteps ? `, ${failedSteps} failed` : ''}</span> `;
  const userSteps = Array.isArray(t.userSteps) ? t.userSteps : [];
  if (userSteps.length > 0) out += `<span class="tag">${userSteps.length} user tool call${userSteps.length === 1 ? '' : 's'}</span> `;
  out += `<span class="muted">task ${escapeHtml(t.taskId)} · rollout ${escapeHtml(String(t.rollout))}${who ? ` · ${escapeHtml(who)}` : ''}</span></div></header>`;
  if (task) {
    out += `<div class="intent"><strong>intent</strong> ${text(String(task.intent), max)}</div>`;
    const gold = Array.isArray(task.goldCalls) ? task.goldCalls : [];
    if (gold.length > 0) {
      const lines = gold.map((g) => `${g.name}(${JSON.stringify(g.arguments)})`).join('\n');
      out += `<details class="gold"><summary>reference solution (${gold.length} gold call${gold.length === 1 ? '' : 's'})</summary><pre>${text(lines, max)}</pre></details>`;
    }
  }
  if (injected.length > 0) {
    out += `<div class="injected-list"><strong>injected user errors</strong><ul>${injected
      .map((e) => `<li><a href="#${id}-m-${Number(e.messageIndex)}">message #${Number(e.messageIndex)}</a>: ${escapeHtml(String(e.kind))} ${escapeHtml(JSON.stringify(e.detail ?? {}))}</li>`)
      .join('')}</ul></div>`;
  }
  out += verdictHtml(id, verdict);
  out += '<div class="dialogue">';
  t.messages.forEach((m, i) => {
    // The user's own tool calls come before the user message they led to.
    for (const step of userSteps) if (step.messageIndex === i) out += userStepHtml(step, max);
    out += messageHtml(m, i, id, { calls, verdict, injected, max });
  });
  for (const step of userSteps) if (step.messageIndex >= t.messages.length) out += userStepHtml(step, max);
  out += `</div><footer class="muted">ended: ${escapeHtml(String(t.termination))}${typeof meta.error === 'string' ? ` — ${text(meta.error, max)}` : ''}</footer></article>`;
  return out;
}

/**
 * The trajectory viewer: a filterable list (reward: success/failure; verdict: user error,
 * clean, not judged) and, per trajectory, the dialogue as chat bubbles with tool calls and
 * results (errors highlighted), the intent, injected user errors and the verdict, whose evidence
 * messages are highlighted. Everything is rendered here, escaped; the page's script only
 * switches which trajectory is visible.
 */
export function trajectoryViewer(trajectories: readonly Trajectory[], options: TrajectoryViewerOptions): string {
  const total = options.total ?? trajectories.length;
  let list = '';
  trajectories.forEach((t, i) => {
    const verdict = options.verdicts.get(t.id);
    const v = verdictClass(verdict);
    list +=
      `<li><button type="button" class="traj-item${i === 0 ? ' active' : ''}" data-target="traj-${i}" data-reward="${rewardClass(t)}" data-verdict="${v}">` +
      `<span class="dot dot-${rewardClass(t)}"></span><span class="traj-name">${escapeHtml(t.id)}</span>` +
      `<span class="traj-sub">r=${escapeHtml(String(t.reward))} · ${escapeHtml(String(t.termination))}${v === 'user-error' ? ' · masked' : ''}</span></button></li>`;
  });
  const shown = trajectories.length < total ? ` (the first ${trajectories.length} of ${total} are embedded)` : '';
  return (
    '<div class="viewer">' +
    '<div class="viewer-controls">' +
    '<label>reward <select id="filter-reward"><option value="all">all</option><option value="success">success (reward 1)</option><option value="failure">failure</option></select></label> ' +
    '<label>verdict <select id="filter-verdict"><option value="all">all</option><option value="user-error">user error (masked)</option><option value="clean">no user error</option><option value="unjudged">not judged</option></select></label> ' +
    `<span id="traj-count" class="muted">${trajectories.length} trajectories${escapeHtml(shown)}</span></div>` +
    `<div class="viewer-body"><ul class="traj-list">${list}</ul><div class="traj-panes">` +
    trajectories.map((t, i) => trajectoryHtml(t, i, options, i === 0)).join('') +
    '</div></div></div>'
  );
}
