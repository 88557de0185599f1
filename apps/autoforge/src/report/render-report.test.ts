import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunData } from './load-run.js';
import { renderReport } from './render-report.js';

const empty: RunData = { blueprints: [], tasks: [], trajectories: [], outcomes: [], verdicts: [], metrics: [] };

describe('renderReport', () => {
  it('allows exactly its own inline script by hash in the Content-Security-Policy', () => {
    const html = renderReport(empty, { title: 't' });
    const script = /<script>([^]*?)<\/script>/.exec(html)![1]!;
    const hash = createHash('sha256').update(script, 'utf8').digest('base64');
    expect(html).toContain(`script-src &#39;sha256-${hash}&#39;`);
  });

  it('has every section in a fixed order, each with a note when its data is missing', () => {
    const html = renderReport(empty, { title: 'Empty run' });
    const ids = [...html.matchAll(/<section class="card" id="([a-z]+)">/g)].map((m) => m[1]);
    expect(ids).toEqual(['overview', 'training', 'ablation', 'graph', 'blueprints', 'difficulty', 'trajectories']);
    expect(html.match(/class="note-missing"/g)).toHaveLength(7);
    expect(html).toContain('<h1>Empty run</h1>');
  });

  it('summarizes outcomes and verdicts in the overview', () => {
    const html = renderReport(
      {
        ...empty,
        outcomes: [{ reward: 1, termination: 'user_stop' }, { reward: 0, termination: 'max_turns' }, { reward: 1, termination: 'user_stop' }, { reward: 0, termination: 'user_stop' }],
        verdicts: [
          { trajectoryId: 'a', taskId: 't', envId: 'e', rollout: 0, userError: true, kinds: ['wrong_fact'], blame: 'user', evidence: [], judge: 'rule' },
          { trajectoryId: 'b', taskId: 't', envId: 'e', rollout: 1, userError: false, kinds: [], blame: 'none', evidence: [], judge: 'rule' },
        ],
      },
      { title: 't' },
    );
    expect(html).toContain('<div class="value">50.0%</div><div class="label">success rate (2 with reward 1)</div>');
    expect(html).toContain('<div class="value">50.0%</div><div class="label">masked by the judge (1 of 2 judged)</div>');
    expect(html).toContain('terminations: user_stop 3 · max_turns 1');
  });
});
