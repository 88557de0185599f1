import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

const STATUS_VALUES = ['new', 'open', 'pending', 'escalated', 'closed'];
const STATUS: JsonSchemaObject = { type: 'string', enum: STATUS_VALUES };

/** A help desk nobody wrote for a benchmark: string ticket ids and a status enum. */
const helpDesk: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('open_helpdesk_ticket', 'Open a new helpdesk ticket.', { subject: { type: 'string' }, details: { type: 'string' }, urgency: { type: 'integer', minimum: 1, maximum: 4, default: 2 } }, ['subject']),
    tool('fetch_helpdesk_ticket', 'Fetch one helpdesk ticket.', { ticket_id: { type: 'string' } }, ['ticket_id']),
    tool('list_helpdesk_tickets', 'List helpdesk tickets, optionally by status.', { status: STATUS }),
    tool('escalate_helpdesk_ticket', 'Escalate a helpdesk ticket to the second line.', { ticket_id: { type: 'string' }, reason: { type: 'string' } }, ['ticket_id']),
    tool('close_helpdesk_ticket', 'Close a helpdesk ticket.', { ticket_id: { type: 'string' } }, ['ticket_id']),
    tool('assign_helpdesk_ticket', 'Assign a helpdesk ticket to an agent.', { ticket_id: { type: 'string' }, assignee: { type: 'string' } }, ['ticket_id', 'assignee']),
    tool('comment_on_helpdesk_ticket', 'Add a comment to a helpdesk ticket.', { ticket_id: { type: 'string' }, comment: { type: 'string' } }, ['ticket_id', 'comment']),
    tool('delete_helpdesk_ticket', 'Delete a helpdesk ticket.', { ticket_id: { type: 'string' } }, ['ticket_id']),
  ],
};

/** A bug tracker scoped by project, with integer bug numbers. */
const bugTracker: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('report_bug', 'Report a bug in a project.', { project: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } }, ['project', 'title']),
    tool('view_bug', 'View one bug of a project.', { project: { type: 'string' }, bug_number: { type: 'integer' } }, ['project', 'bug_number']),
    tool('set_bug_state', 'Set the state of a bug.', { project: { type: 'string' }, bug_number: { type: 'integer' }, state: { type: 'string', enum: ['open', 'closed'] } }, ['project', 'bug_number', 'state']),
    tool('list_bugs', 'List the bugs of a project.', { project: { type: 'string' }, state: { type: 'string', enum: ['open', 'closed'] }, page: { type: 'integer' } }, ['project']),
  ],
};

function synth(doc: ToolDoc, sampleState?: JsonObject): { spec: EnvironmentSpec; works: Record<string, boolean>; patterns: Record<string, string> } {
  const r = synthesizeEnvironment(doc, { seed: 7, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const coverage = r.value.report.coverage ?? [];
  if (process.env.TICKETS_DEBUG) console.log(JSON.stringify(coverage.filter((c) => !c.works), null, 1));
  return {
    spec: r.value.spec,
    works: Object.fromEntries(coverage.map((c) => [c.tool, c.works])),
    patterns: Object.fromEntries(coverage.map((c) => [c.tool, c.pattern])),
  };
}

async function session(spec: EnvironmentSpec) {
  const env = await createEnvironment(spec);
  const s = env.createSession();
  let n = 0;
  return {
    call: (name: string, args: JsonObject): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) }),
    state: () => s.state(),
    close: () => env.close(),
  };
}

function out(r: ToolResult): JsonValue {
  if (!r.ok) throw new Error(r.error.message);
  return r.output;
}

describe('ticketsFamily', () => {
  it('claims every tool of a help desk, and each passes its behavioural self-check', () => {
    const { works, patterns } = synth(helpDesk);
    expect(Object.values(patterns).every((p) => p.startsWith('tickets:'))).toBe(true);
    expect(works).toEqual(Object.fromEntries(helpDesk.tools.map((t) => [t.name, true])));
    expect(patterns.escalate_helpdesk_ticket).toBe('tickets:transition');
    expect(patterns.comment_on_helpdesk_ticket).toBe('tickets:comment');
  });

  it('a created ticket is visible to a read, and statuses come from the document enum', async () => {
    const { spec } = synth(helpDesk);
    const s = await session(spec);
    try {
      const made = out(s.call('open_helpdesk_ticket', { subject: 'VPN drops every hour' })) as JsonObject;
      expect(made.status).toBe('open');
      expect(made.urgency).toBe(2);
      expect(typeof made.id).toBe('string');
      const got = out(s.call('fetch_helpdesk_ticket', { ticket_id: made.id as string })) as JsonObject;
      expect(got.subject).toBe('VPN drops every hour');
      expect((out(s.call('escalate_helpdesk_ticket', { ticket_id: made.id as string, reason: 'VIP' })) as JsonObject).status).toBe('escalated');
      expect(out(s.call('close_helpdesk_ticket', { ticket_id: made.id as string }))).toMatchObject({ status: 'closed' });
      const again = s.call('close_helpdesk_ticket', { ticket_id: made.id as string });
      expect(again.ok).toBe(false);
      const closed = out(s.call('list_helpdesk_tickets', { status: 'closed' })) as JsonObject[];
      expect(closed.map((t) => t.id)).toContain(made.id);
      expect(closed.every((t) => t.status === 'closed')).toBe(true);
      expect(s.call('open_helpdesk_ticket', { subject: 'x', urgency: 9 }).ok).toBe(false);
      expect(s.call('fetch_helpdesk_ticket', { ticket_id: 'nope' }).ok).toBe(false);
    } finally {
      s.close();
    }
  });

  it('seeds only statuses the document names', () => {
    const { spec } = synth(helpDesk);
    const tickets = Object.values(spec.seedState.tickets as Record<string, JsonObject>);
    expect(tickets.length).toBeGreaterThan(2);
    for (const t of tickets) expect(STATUS_VALUES).toContain(t.status);
  });

  it('numbers tickets per scope and finds them by integer number and scope', async () => {
    const { spec, works } = synth(bugTracker);
    expect(Object.values(works).every(Boolean)).toBe(true);
    const s = await session(spec);
    try {
      const a = out(s.call('report_bug', { project: 'atlas', title: 'Crash on start' })) as JsonObject;
      const b = out(s.call('report_bug', { project: 'atlas', title: 'Typo in footer' })) as JsonObject;
      const c = out(s.call('report_bug', { project: 'zephyr-new', title: 'Slow search' })) as JsonObject;
      expect([a.bug_number ?? a.number, b.bug_number ?? b.number, c.bug_number ?? c.number]).toEqual([1, 2, 1]);
      expect(out(s.call('view_bug', { project: 'zephyr-new', bug_number: 1 }))).toMatchObject({ title: 'Slow search' });
      out(s.call('set_bug_state', { project: 'atlas', bug_number: 2, state: 'closed' }));
      const open = out(s.call('list_bugs', { project: 'atlas', state: 'open' })) as JsonObject[];
      expect(open.map((t) => t.title)).toEqual(['Crash on start']);
      expect(s.call('view_bug', { project: 'atlas', bug_number: 3 }).ok).toBe(false);
    } finally {
      s.close();
    }
  });

  it('adopts a sample list of tickets with its id counter and current user', async () => {
    const doc: ToolDoc = {
      format: 'openai-chat',
      tools: [
        tool('raise_ticket', 'Raise a ticket as the logged-in user.', { title: { type: 'string' } }, ['title'], {
          type: 'object',
          properties: { id: { type: 'integer' }, title: { type: 'string' }, status: { type: 'string' }, created_by: { type: 'string' } },
        }),
        tool('read_ticket', 'Read a ticket.', { ticket_id: { type: 'integer' } }, ['ticket_id']),
        tool('resolve_support_ticket', 'Resolve a ticket.', { ticket_id: { type: 'integer' }, resolution: { type: 'string' } }, ['ticket_id', 'resolution'], {
          type: 'object',
          properties: { status: { type: 'string', description: 'Status of the operation.' } },
        }),
      ],
    };
    const sample = { queue_of_tickets: [{ id: 4, title: 'Badge reader broken', status: 'Open' }], ticket_counter: 9, current_user: 'amira.okafor' };
    const { spec, works } = synth(doc, sample);
    expect(works).toEqual({ raise_ticket: true, read_ticket: true, resolve_support_ticket: true });
    expect(Array.isArray(spec.seedState.queue_of_tickets)).toBe(true);
    const s = await session(spec);
    try {
      const made = out(s.call('raise_ticket', { title: 'Monitor flickers' })) as JsonObject;
      expect(made).toMatchObject({ id: 9, created_by: 'amira.okafor', title: 'Monitor flickers' });
      expect(out(s.call('resolve_support_ticket', { ticket_id: 4, resolution: 'Replaced the reader' }))).toEqual({ status: 'Ticket 4 has been resolved successfully.' });
      const state = s.state();
      expect(state.ticket_counter).toBe(10);
      expect((state.queue_of_tickets as JsonObject[]).map((t) => [t.id, t.status])).toEqual([
        [4, 'Resolved'],
        [9, 'Open'],
      ]);
    } finally {
      s.close();
    }
  });

  it('leaves documents without a ticket noun alone', () => {
    const doc: ToolDoc = {
      format: 'openai-chat',
      tools: [tool('create_note', 'Create a note.', { text: { type: 'string' } }, ['text']), tool('get_note', 'Get a note.', { note_id: { type: 'string' } }, ['note_id'])],
    };
    const { patterns } = synth(doc);
    expect(Object.values(patterns).some((p) => p.startsWith('tickets:'))).toBe(false);
  });

  it('same document, same seed: the same spec bytes', () => {
    expect(canonicalJson(synth(helpDesk).spec as unknown as JsonValue)).toBe(canonicalJson(synth(helpDesk).spec as unknown as JsonValue));
  });
});
