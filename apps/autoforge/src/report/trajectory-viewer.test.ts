import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task, Trajectory, Verdict } from '@autoforge/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewardClass, trajectoryViewer, verdictClass } from './trajectory-viewer.js';

const lines = <T>(file: string): T[] => readFileSync(join(import.meta.dirname, 'fixtures/run', file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as T);
const trajectories = lines<Trajectory>('trajectories.jsonl');
const tasks = new Map(lines<Task>('tasks.jsonl').map((t) => [t.id, t]));
const verdicts = new Map(lines<Verdict>('verdicts.jsonl').map((v) => [v.trajectoryId, v]));
const hostile = trajectories.find((t) => t.id.endsWith('#2'))!;

const base: Trajectory = {
  id: 't#0', envId: 'e', taskId: 'task', rollout: 0, seed: 0, steps: [], termination: 'user_stop', finalDigest: '', reward: 1,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, durationMs: 0, injectedUserErrors: [], metadata: {},
  messages: [{ role: 'user', content: 'hi' }],
};

describe('trajectoryViewer', () => {
  it('lists every trajectory with its reward and verdict classes, the first one shown', () => {
    const html = trajectoryViewer(trajectories, { tasks, verdicts });
    expect(html.match(/class="traj-item/g)).toHaveLength(trajectories.length);
    expect(html.match(/<article class="traj/g)).toHaveLength(trajectories.length);
    expect(html.match(/<article class="traj active"/g)).toHaveLength(1);
    expect(html).toContain('data-verdict="user-error"');
    expect(html).toContain('data-verdict="unjudged"');
    expect(html).toContain('data-reward="failure"');
    expect(html).toContain('<select id="filter-reward">');
  });

  it('escapes every text from the run: no <script>, no event handler attribute gets through', () => {
    const html = trajectoryViewer([hostile], { tasks, verdicts });
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<b>/);
    expect(html).not.toMatch(/<!--/);
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('onerror=\\&quot;window.__pwned=2\\&quot;');
  });

  it('no text from the run opens a tag, whatever it holds (property)', () => {
    // Every run-supplied string starts with a tag of a name the page never uses.
    const tag = (s: string): string => `<zz-x>${s}`;
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (user, tool, note) => {
        const t: Trajectory = {
          ...base,
          id: tag(user),
          taskId: tag(note),
          termination: tag(tool) as Trajectory['termination'],
          metadata: { agent: tag(user) },
          injectedUserErrors: [{ kind: tag(note) as 'wrong_fact', messageIndex: 0, detail: { v: tag(note) } }],
          messages: [
            { role: 'system', content: tag(user) },
            { role: 'user', content: tag(user) },
            { role: 'assistant', content: tag(note), toolCalls: [{ id: tag(tool), name: tag(tool), arguments: tag(tool) }] },
            { role: 'tool', toolCallId: tag(tool), content: tag(tool), isError: true },
          ],
        };
        const v: Verdict = {
          trajectoryId: t.id, taskId: 'task', envId: 'e', rollout: 0, userError: true, kinds: [tag(note) as 'wrong_fact'],
          blame: tag(note) as 'user', evidence: [{ messageIndex: 1, note: tag(note) }], judge: tag(note),
        };
        const task = { id: t.taskId, envId: 'e', intent: tag(user), userFacts: [], goldCalls: [{ name: tag(tool), arguments: { a: tag(tool) } }], expectedFinalDigest: '', requiredOutputs: [] };
        const html = trajectoryViewer([t], { tasks: new Map([[t.taskId, task]]), verdicts: new Map([[t.id, v]]) });
        expect(html).not.toContain('<zz-');
      }),
    );
  });

  it('shows tool calls with their arguments and results, errors and unparsable arguments marked', () => {
    const html = trajectoryViewer([hostile], { tasks, verdicts });
    expect(html.match(/class="msg msg-tool tool-error/g)).toHaveLength(2);
    expect(html).toContain('unparsable arguments');
    expect(html).toContain('<code class="tool-name">find_guest_id_by_email</code>');
    const ok = trajectoryViewer([trajectories[0]!], { tasks, verdicts });
    expect(ok).toMatch(/class="msg msg-tool" id="traj-0-m-\d+"/);
    // JSON results are pretty-printed
    expect(ok).toMatch(/<pre class="result">\{\n {2}&quot;/);
  });

  it("shows the user's own tool calls (dual control) before the user message they led to", () => {
    const base = trajectories[0]!;
    const userIndex = base.messages.findIndex((m, i) => i > 1 && m.role === 'user');
    const dual = {
      ...base,
      userSteps: [
        { messageIndex: userIndex, call: { id: 'u1', name: 'toggle_airplane_mode', arguments: '{}' }, result: { ok: true as const, output: { airplane_mode: false } }, durationMs: 0 },
        { messageIndex: userIndex, call: { id: 'u2', name: 'reboot_device', arguments: '{}' }, result: { ok: false as const, error: { code: 'tool_error' as const, message: 'device <off>' } }, durationMs: 0 },
      ],
    };
    const html = trajectoryViewer([dual], { tasks, verdicts });
    expect(html).toContain('2 user tool calls');
    const first = html.indexOf('<code class="tool-name">toggle_airplane_mode</code>');
    const userMessage = html.indexOf(`id="traj-0-m-${userIndex}"`);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(userMessage);
    expect(html).toContain('class="msg msg-user-tool tool-error"');
    expect(html).toContain('tool_error: device &lt;off&gt;');
  });

  it('highlights the verdict evidence and the injected errors on their messages', () => {
    const html = trajectoryViewer([hostile], { tasks, verdicts });
    expect(html).toMatch(/class="msg msg-user injected evidence" id="traj-0-m-2"/);
    expect(html).toMatch(/class="msg msg-tool tool-error evidence" id="traj-0-m-4"/);
    expect(html).toContain('<a href="#traj-0-m-2">message #2</a>');
    expect(html).toContain('user error — masked');
    expect(html).toContain('injected wrong_fact');
  });

  it("shows the task's intent and reference solution, and says when a trajectory was not judged", () => {
    const unjudged = trajectories.find((t) => !verdicts.has(t.id))!;
    const html = trajectoryViewer([unjudged], { tasks, verdicts });
    expect(html).toContain('not judged');
    expect(html).toContain('<strong>intent</strong>');
    expect(html).toMatch(/reference solution \(\d+ gold calls?\)/);
  });

  it('cuts very long results and says how much', () => {
    const t: Trajectory = { ...base, messages: [{ role: 'tool', toolCallId: 'x', content: 'y'.repeat(5000) }] };
    const html = trajectoryViewer([t], { tasks: new Map(), verdicts: new Map(), maxChars: 100 });
    expect(html).toContain('… (4900 more characters)');
  });

  it('says how many trajectories of the run are embedded', () => {
    expect(trajectoryViewer([base], { tasks: new Map(), verdicts: new Map(), total: 500 })).toContain('the first 1 of 500 are embedded');
  });
});

describe('rewardClass and verdictClass', () => {
  it('classify for the filters', () => {
    expect(rewardClass({ ...base, reward: 1 })).toBe('success');
    expect(rewardClass({ ...base, reward: 0.5 })).toBe('failure');
    expect(verdictClass(undefined)).toBe('unjudged');
    expect(verdictClass(verdicts.get(hostile.id))).toBe('user-error');
  });
});
