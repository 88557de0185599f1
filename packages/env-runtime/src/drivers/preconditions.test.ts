import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { createEnvironmentSync } from '../environment.js';
import type { DriverPrecondition, EnvironmentSpec, EnvironmentTool } from '../spec.js';
import { validateEnvironmentSpec } from '../validate-spec.js';

function tool(name: string, driver: string, params: unknown, properties: JsonObject, required: string[], preconditions?: DriverPrecondition[]): EnvironmentTool {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: properties as never, required },
    outputSchema: {},
    implementation: { kind: 'driver', driver, version: 1, params: params as JsonValue, ...(preconditions !== undefined ? { preconditions } : {}) },
    source: { format: 'openai-chat', pointer: `/${name}` },
  };
}

// An invented document: `open_session` mints a key, `save_note(session_key, text)` needs it.
const login = { op: 'login', flag: ['session', 'logged_in'], token: ['session', 'key'], copy: [], output: { object: { session_key: { fact: 'token' } } } };
const note = { key: 'note', kind: 'string', op: 'set', valueArg: 'text', message: 'Saved {value}.', output: { note: { $: 'value' } } };
const check: DriverPrecondition = { path: ['session', 'key'], arg: 'session_key', message: 'Invalid session key: open a session first' };

function spec(checks: DriverPrecondition[] = [check]): EnvironmentSpec {
  return {
    specVersion: 1,
    id: 'pre-test',
    name: 'pre',
    stateSchema: { type: 'object' },
    seedState: { session: { logged_in: false, key: null }, note: '' },
    tools: [
      tool('open_session', 'session', login, {}, []),
      tool('save_note', 'value', note, { session_key: { type: 'string' }, text: { type: 'string' } }, ['session_key', 'text'], checks),
    ],
  };
}

describe('DriverPrecondition.arg', () => {
  it('accepts a call whose argument equals the token the login of this session minted', () => {
    const s = createEnvironmentSync(spec()).createSession();
    const opened = s.stepSync({ id: '1', name: 'open_session', arguments: '{}' });
    if (!opened.ok) throw new Error(opened.error.message);
    const key = (opened.output as JsonObject).session_key as string;
    expect(typeof key).toBe('string');
    const saved = s.stepSync({ id: '2', name: 'save_note', arguments: JSON.stringify({ session_key: key, text: 'hi' }) });
    expect(saved.ok).toBe(true);
    expect((s.state() as JsonObject).note).toBe('hi');
  });

  it('refuses another token, and any token before a login (the seed holds none)', () => {
    const s = createEnvironmentSync(spec()).createSession();
    const before = s.stepSync({ id: '1', name: 'save_note', arguments: JSON.stringify({ session_key: '', text: 'hi' }) });
    expect(before.ok).toBe(false);
    s.stepSync({ id: '2', name: 'open_session', arguments: '{}' });
    const wrong = s.stepSync({ id: '3', name: 'save_note', arguments: JSON.stringify({ session_key: 'made-up', text: 'hi' }) });
    expect(wrong.ok).toBe(false);
    expect(wrong.ok ? '' : wrong.error.message).toContain('Invalid session key');
    expect((s.state() as JsonObject).note).toBe('');
  });

  it('also takes the values `accepts` lists, after a new login too', () => {
    const s = createEnvironmentSync(spec([{ ...check, accepts: ['first-key'] }])).createSession();
    expect(s.stepSync({ id: '1', name: 'save_note', arguments: JSON.stringify({ session_key: 'first-key', text: 'a' }) }).ok).toBe(true);
    s.stepSync({ id: '2', name: 'open_session', arguments: '{}' });
    expect(s.stepSync({ id: '3', name: 'save_note', arguments: JSON.stringify({ session_key: 'first-key', text: 'b' }) }).ok).toBe(true);
    expect(s.stepSync({ id: '4', name: 'save_note', arguments: JSON.stringify({ session_key: 'other', text: 'c' }) }).ok).toBe(false);
  });

  it('is checked by spec validation (an empty name is refused)', () => {
    const bad = spec();
    (bad.tools[1]?.implementation as { preconditions: DriverPrecondition[] }).preconditions = [{ ...check, arg: '' }];
    expect(validateEnvironmentSpec(bad).ok).toBe(false);
    expect(validateEnvironmentSpec(spec()).ok).toBe(true);
  });
});
