// Shared helpers of the hostile-server suite (message floods, slow bodies, deep nesting, a state
// that keeps growing, all through `autoforge serve`): a run directory, the server in a child
// process under a hard outer limit (SIGKILL), raw-socket clients, and the server's memory. The
// tests assert verdicts (status codes, dropped connections, other clients answered), not times.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EnvironmentSpec } from '@autoforge/env-runtime';

/** The built CLI. */
export const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
/** The hard outer limit of every server process and raw client, in ms: far above any verdict's need. */
export const OUTER_LIMIT_MS = 120_000;

/** The environment every hostile-server test serves: notes that a tool adds, reads and nests. */
export const NOTES_ENV: EnvironmentSpec = {
  specVersion: 1,
  id: 'notes',
  name: 'Notes',
  stateSchema: { type: 'object' },
  seedState: { notes: { n1: { id: 'n1', text: 'buy milk' } } },
  tools: [
    {
      name: 'get_note',
      description: 'Get a note by id.',
      parameters: { type: 'object', properties: { note_id: { type: 'string' } }, required: ['note_id'] },
      outputSchema: {},
      implementation: { kind: 'js', source: 'function run({ note_id }, ctx) { const n = ctx.db.get("notes", note_id); if (!n) throw new Error("no note " + note_id); return n; }' },
      source: { format: 'openai-chat', pointer: '/0' },
    },
    {
      name: 'add_note',
      description: 'Add a note.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      outputSchema: {},
      implementation: { kind: 'js', source: 'function run({ text }, ctx) { const id = ctx.ids.next("n_"); ctx.db.put("notes", id, { id, text }); return { id }; }' },
      source: { format: 'openai-chat', pointer: '/1' },
    },
    {
      name: 'nest_note',
      description: 'Add a note nested as deep as asked.',
      parameters: { type: 'object', properties: { depth: { type: 'integer' } }, required: ['depth'] },
      outputSchema: {},
      implementation: { kind: 'js', source: 'function run({ depth }, ctx) { let v = {}; for (let i = 0; i < depth; i++) v = { v }; ctx.db.put("notes", "deep", { id: "deep", v }); return { ok: true }; }' },
      source: { format: 'openai-chat', pointer: '/2' },
    },
  ],
};

/** A run directory with the notes environment and no tasks. */
export function writeNotesRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'autoforge-hostile-server-'));
  mkdirSync(join(dir, 'envs'));
  writeFileSync(join(dir, 'envs', 'notes.json'), JSON.stringify(NOTES_ENV));
  writeFileSync(join(dir, 'tasks.jsonl'), '');
  return dir;
}

/** A running `autoforge serve`. */
export interface ServedProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** What it printed so far. */
  output(): string;
  /** Peak resident memory so far, in bytes (Linux: VmHWM), or undefined elsewhere. */
  peakRss(): number | undefined;
  /** Kills it (SIGKILL) and waits for the exit. */
  stop(): Promise<void>;
}

function procStatus(pid: number | undefined, field: string): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Starts `autoforge serve <dir> --port 0 …flags`; killed at the outer limit whatever happens. */
export function startServe(dir: string, flags: readonly string[] = []): Promise<ServedProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', dir, '--port', '0', ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  const outer = setTimeout(() => child.kill('SIGKILL'), OUTER_LIMIT_MS);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      resolve({
        url: match[1] as string,
        child,
        output: () => out,
        peakRss: () => procStatus(child.pid, 'VmHWM'),
        stop: () =>
          new Promise<void>((done) => {
            clearTimeout(outer);
            if (child.exitCode !== null || child.signalCode !== null) {
              done();
              return;
            }
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(outer);
      reject(new Error(`autoforge serve ended (${String(code)} ${String(signal)}) before listening:\n${out}`));
    });
  });
}

/** One JSON request; `body` as text is sent as it is. */
export async function request(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: { error?: { code: string; message: string; location?: string } } & Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, never>) };
}

/** Opens a session on the notes environment; answers its id. */
export async function openSession(url: string): Promise<string> {
  const opened = await request(url, 'POST', '/sessions', { envId: 'notes' });
  if (opened.status !== 201) throw new Error(`POST /sessions: ${opened.status} ${JSON.stringify(opened.body)}`);
  return String(opened.body.sessionId);
}

/** How a raw connection ended: what the server sent back before it closed the connection. */
export interface RawEnd {
  received: string;
  /** True when the server closed it (not the outer limit). */
  closedByServer: boolean;
}

/**
 * Writes `start` on a raw connection, then `trickle()` every `everyMs` (never ending on its
 * own), and resolves once the server closes the connection (the outer limit ends it otherwise).
 */
export function trickleRequest(url: string, start: string, trickle: () => string, everyMs: number): Promise<RawEnd> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    let outerHit = false;
    const outer = setTimeout(() => {
      outerHit = true;
      socket.destroy();
    }, OUTER_LIMIT_MS);
    socket.on('connect', () => {
      socket.write(start);
      timer = setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write(trickle());
      }, everyMs);
    });
    socket.on('data', (d) => {
      received += d.toString();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(outer);
      resolve({ received, closedByServer: !outerHit });
    });
  });
}

/** JSON text nested `depth` deep around `inner`. */
export function nested(depth: number, inner = '1'): string {
  return '['.repeat(depth) + inner + ']'.repeat(depth);
}
