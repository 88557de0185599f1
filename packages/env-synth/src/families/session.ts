import type { JsonObject, JsonSchemaObject, JsonValue, Seed } from '@autoforge/core';
import { createRng, isJsonObject } from '@autoforge/core';
import type { DriverPrecondition } from '@autoforge/env-runtime';
import type { ToolAnalysis } from '../analyze-tool.js';
import { valueFor } from '../values/index.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';
import { describe, nameWords, normName, propsOf, typeOf } from './settings.js';

// A session: who is logged in. Login, logout and login-status tools over one singleton
// (`{ logged_in, user, token }`, or the session-like top-level keys of a sample state), and a
// precondition on the tools that need a session.

type Json = JsonObject;
type Op = 'login' | 'logout' | 'status';

const LOGIN_WORDS = new Set(['login', 'signin', 'logon', 'authenticate', 'authentication', 'auth', 'authorize']);
const LOGOUT_WORDS = new Set(['logout', 'signout', 'logoff']);
const USER_PARAM = [/^(user_?name|login)$/, /^user_?id$/, /^e_?mail$/, /^user$/, /^client_?id$/, /^(phone|phone_?number|mobile)$/, /^(account|account_?id)$/];
const SECRET_PARAM = /^(password|passwd|pass|passcode|pin|secret|client_?secret)$/;

/** The session operation a tool names, or undefined. */
function opOf(a: ToolAnalysis): Op | undefined {
  const w = a.words;
  if (w.some((x) => LOGOUT_WORDS.has(x))) return a.params.filter((p) => p.required).length <= 1 ? 'logout' : undefined;
  const sessionWord = w.some((x) => LOGIN_WORDS.has(x) || x === 'session');
  if (sessionWord && w.some((x) => x === 'status' || x === 'state')) return a.params.some((p) => p.required) ? undefined : 'status';
  if (w.includes('whoami') || (w.includes('current') && w.includes('user') && a.params.length === 0)) return 'status';
  if (w.some((x) => LOGIN_WORDS.has(x))) return 'login';
  return undefined;
}

function snakeName(name: string): string {
  return nameWords(name).join('_');
}

function userParam(a: ToolAnalysis): string | undefined {
  for (const re of USER_PARAM) {
    const p = a.params.find((x) => re.test(snakeName(x.name)));
    if (p !== undefined) return p.name;
  }
  return undefined;
}

function secretParam(a: ToolAnalysis): string | undefined {
  return a.params.find((x) => SECRET_PARAM.test(snakeName(x.name)))?.name;
}

// Descriptions that say a tool needs a session.
const NEEDS_SESSION =
  /\b(requires? (?:a |an |the )?(?:login|log-?in|sign-?in|session|authentication)|(?:must|needs? to|has to|should) be (?:logged|signed) in|(?:must|needs? to|has to) be authenticated|only (?:if|when|after) (?:the )?user (?:is|has) (?:logged in|signed in|authenticated)|(?:can|may) only be (?:done|used|called|run|performed) by (?:the |a |an )?(?:logged[ -]in|signed[ -]in|authenticated) user|user (?:must|needs to|has to) be (?:logged in|signed in|authenticated)|after (?:logging|signing) in)\b/i;

const WRITE_VERBS = /^(create|add|update|set|delete|remove|place|cancel|book|buy|purchase|sell|pay|fund|deposit|withdraw|transfer|post|send|submit|register|modify|change|edit|upload|reserve|refund|charge|save|write|follow|unfollow|comment|retweet|share|insert|patch|assign)$/;

function isWrite(a: ToolAnalysis): boolean {
  if (a.readOnly) return false;
  if (a.writes) return true;
  const cls = a.verbClass;
  if (cls === 'create' || cls === 'update' || cls === 'transition' || cls === 'delete' || cls === 'enable' || cls === 'disable' || cls === 'toggle') return true;
  const verb = a.verb ?? a.words[0];
  return verb !== undefined && WRITE_VERBS.test(verb);
}

/** OpenAPI tags of a tool (the parser keeps them with the HTTP binding), or undefined. */
function areaOf(a: ToolAnalysis): string[] | undefined {
  const http = a.tool.extensions?.['x-autoforge-http'];
  const tags = isJsonObject(http ?? null) ? (http as Json).tags : undefined;
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : undefined;
}

// ---------------------------------------------------------------------------------------------
// The state.

interface SessionLayout {
  /** State key of the singleton, or '' when the session is the sample's own top-level keys. */
  key: string;
  flag: string[];
  user?: string[];
  token?: string[];
  /** Top-level sample keys adopted (flat layout). */
  adopted: string[];
  seed: Json;
  /** The users whose credentials a login checks, when the state holds them. */
  users?: { key: string | null; userField: string | null; secretField?: string; first?: Json };
}

const FLAG_NAME = /^(is_)?(authenticated|logged_in|signed_in|login|logged|is_logged_in|auth|session_active|active_session)$/;
const USER_NAME = /^(current_user|logged_in_user|username|user_name|user|current_username|user_id|current_user_id|session_user)$/;
const TOKEN_NAME = /^(access_token|token|session_token|auth_token|session_id)$/;
const RELATED = new Set(['token', 'user', 'auth', 'session', 'login', 'scope', 'expires', 'expiry', 'credential']);

function isScalar(v: JsonValue): boolean {
  return v === null || typeof v !== 'object';
}

/** The session-like top-level keys of a sample state. */
function sampleLayout(sample: Json, loginParams: readonly string[]): SessionLayout | undefined {
  const keys = Object.keys(sample).filter((k) => isScalar(sample[k] as JsonValue));
  const flag = keys.find((k) => typeof sample[k] === 'boolean' && FLAG_NAME.test(snakeName(k)));
  const user = keys.find((k) => USER_NAME.test(snakeName(k)) && (typeof sample[k] === 'string' || sample[k] === null || typeof sample[k] === 'number'));
  const token = keys.find((k) => TOKEN_NAME.test(snakeName(k)));
  if (flag === undefined && user === undefined && token === undefined) return undefined;
  const params = new Set(loginParams.map(normName));
  const adopted = keys.filter((k) => k === flag || k === user || k === token || params.has(normName(k)) || (token !== undefined && nameWords(k).some((w) => RELATED.has(w))));
  const layout: SessionLayout = { key: '', flag: [flag ?? token ?? (user as string)], adopted, seed: {} };
  if (user !== undefined) layout.user = [user];
  if (token !== undefined) layout.token = [token];
  for (const k of adopted) layout.seed[k] = sample[k] as JsonValue;
  return layout;
}

function records(v: JsonValue | undefined): [string, Json][] {
  if (Array.isArray(v)) return v.filter(isJsonObject).map((r, i) => [String(i), r]);
  if (v !== undefined && isJsonObject(v)) return Object.entries(v).filter((e): e is [string, Json] => isJsonObject(e[1]));
  return [];
}

/** A sample key holding user records whose field matches the login's user parameter. */
function sampleUsers(sample: Json, userArg: string, secretArg: string | undefined): SessionLayout['users'] {
  for (const [key, v] of Object.entries(sample)) {
    const recs = records(v);
    const first = recs[0]?.[1];
    if (first === undefined) continue;
    const field = Object.keys(first).find((f) => normName(f) === normName(userArg));
    if (field === undefined) continue;
    const secret = secretArg !== undefined ? Object.keys(first).find((f) => normName(f) === normName(secretArg)) : undefined;
    const users: NonNullable<SessionLayout['users']> = { key, userField: field, first };
    if (secret !== undefined) users.secretField = secret;
    return users;
  }
  return undefined;
}

function pickKey(taken: ReadonlySet<string>): string {
  for (const k of ['session', 'auth_session', 'login_session']) if (!taken.has(k)) return k;
  return `session_${taken.size}`;
}

// ---------------------------------------------------------------------------------------------
// Outputs.

/** Whether an output property of a session tool hands out the session token (`access_token`, `session_id`, `session_key`). */
function isTokenOutput(name: string, schema: JsonSchemaObject): boolean {
  const w = nameWords(name);
  const sessionKey = w.includes('session') && (w.includes('id') || w.includes('key'));
  return typeOf(schema) !== 'boolean' && ((w.includes('token') && !w.includes('type')) || sessionKey || TOKEN_NAME.test(snakeName(name)));
}

/** The login's output properties that hand out the session token. */
function tokenOutputs(login: ToolAnalysis): string[] {
  return Object.entries(propsOf(login.tool.outputSchema))
    .filter(([k, schema]) => isTokenOutput(k, schema))
    .map(([k]) => k);
}

/**
 * The parameters of a tool that take the session token the login hands out: the name of a token
 * output of the login, or a plain token name (`access_token`, `session_id`).
 */
function tokenParams(a: ToolAnalysis, outputs: readonly string[]): string[] {
  if (outputs.length === 0) return [];
  const names = new Set(outputs.map(normName));
  return a.params.filter((p) => names.has(normName(p.name)) || TOKEN_NAME.test(snakeName(p.name))).map((p) => p.name);
}

function factFor(name: string, schema: JsonSchemaObject, op: Op, layout: SessionLayout): Json | undefined {
  const w = nameWords(name);
  const t = typeOf(schema);
  const adopted = layout.adopted.find((k) => normName(k) === normName(name) || (w.length > 0 && nameWords(k).slice(-w.length).join('') === w.join('')));
  if (t === 'boolean') return { fact: 'loggedIn' };
  if (isTokenOutput(name, schema)) return { fact: 'token' };
  if (adopted !== undefined && adopted !== layout.flag[0]) return { path: [adopted] };
  if (w.includes('user') || w.includes('username') || (w.includes('name') && op !== 'logout')) return { fact: 'user' };
  if (t === 'string' || t === undefined) return { fact: 'message' };
  return undefined;
}

function outputOf(a: ToolAnalysis, op: Op, layout: SessionLayout): { source: Json; schema: JsonSchemaObject; loggedInProp?: string; userProp?: string } {
  const declared = a.tool.outputSchema;
  const t = typeof declared === 'object' ? typeOf(declared) : undefined;
  if (declared !== undefined && t !== undefined && t !== 'object') return { source: { fact: t === 'boolean' ? 'loggedIn' : 'message' }, schema: declared as JsonSchemaObject };
  const props = propsOf(declared);
  if (Object.keys(props).length === 0) {
    const object: Json = { status: { fact: 'message' }, logged_in: { fact: 'loggedIn' } };
    const schema: JsonSchemaObject = { type: 'object', properties: { status: { type: 'string' }, logged_in: { type: 'boolean' } } };
    if (layout.user !== undefined || userParam(a) !== undefined || op === 'status') {
      object.user = { fact: 'user' };
      (schema.properties as Record<string, JsonSchemaObject>).user = {};
    }
    if (layout.token !== undefined) {
      object.token = { fact: 'token' };
      (schema.properties as Record<string, JsonSchemaObject>).token = {};
    }
    return { source: { object }, schema, loggedInProp: 'logged_in', userProp: 'user' };
  }
  const object: Json = {};
  let loggedInProp: string | undefined;
  let userProp: string | undefined;
  for (const [k, s] of Object.entries(props)) {
    const src = factFor(k, s, op, layout);
    if (src === undefined) continue;
    object[k] = src;
    if ((src as { fact?: string }).fact === 'loggedIn') loggedInProp ??= k;
    if ((src as { fact?: string }).fact === 'user') userProp ??= k;
  }
  const r: { source: Json; schema: JsonSchemaObject; loggedInProp?: string; userProp?: string } = { source: { object }, schema: declared as JsonSchemaObject };
  if (loggedInProp !== undefined) r.loggedInProp = loggedInProp;
  if (userProp !== undefined) r.userProp = userProp;
  return r;
}

// ---------------------------------------------------------------------------------------------
// The family.

interface Claimed {
  tools: { name: string; op: Op }[];
}

function sessionTools(input: FamilyInput): { a: ToolAnalysis; op: Op }[] {
  const found = input.analyses.map((a) => ({ a, op: opOf(a) })).filter((x): x is { a: ToolAnalysis; op: Op } => x.op !== undefined);
  return found.some((x) => x.op === 'login') ? found : [];
}

/** A credential for a probe: the schema's example, else a seeded value valid for the schema (its pattern included). */
function credentialValue(name: string, schema: JsonSchemaObject, seed: Seed): JsonValue {
  const ex = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  if (typeof ex === 'string' || typeof ex === 'number') return ex;
  return valueFor(name, schema, { rng: createRng(seed, 'session', 'credential', name) });
}

/** Seeded schema-valid arguments for a tool's required parameters, around the given ones. */
function requiredArgs(a: ToolAnalysis, given: Json, seed: Seed): Json {
  const args: Json = { ...given };
  for (const p of a.params) {
    if (!p.required || p.name in args) continue;
    // `confirm_password` repeats `password`.
    const w = nameWords(p.name).filter((x) => !/^(confirm|confirmation|repeat|again|verify)$/.test(x));
    const repeated = w.length < nameWords(p.name).length ? a.params.find((q) => q !== p && normName(q.name) === w.join('')) : undefined;
    if (repeated !== undefined && repeated.name in args) {
      args[p.name] = args[repeated.name] as JsonValue;
      continue;
    }
    args[p.name] = valueFor(p.name, p.schema, { rng: createRng(seed, 'session', a.tool.name, p.name) });
  }
  return args;
}

// Tools that come before a session: registering, recovering a password.
const BEFORE_SESSION = new Set(['register', 'signup', 'forgot', 'reset', 'recover', 'verify']);

export const sessionFamily: Family = {
  name: 'session',
  match(input: FamilyInput): FamilyClaim | undefined {
    const found = sessionTools(input);
    if (found.length === 0) return undefined;
    const login = found.find((x) => x.op === 'login')?.a as ToolAnalysis;
    const layout = input.sample !== undefined ? sampleLayout(input.sample, login.params.map((p) => p.name)) : undefined;
    const claimed: Claimed = { tools: found.map((x) => ({ name: x.a.tool.name, op: x.op })) };
    return {
      tools: found.map((x) => x.a.tool.name),
      sampleKeys: layout?.adopted ?? [],
      why: `a login tool (${login.tool.name}) and ${found.length - 1} other session tools`,
      data: claimed as unknown as JsonValue,
    };
  },
  plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
    const data = claim.data as unknown as Claimed;
    const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
    const tools = data.tools.map((t) => ({ a: byName.get(t.name) as ToolAnalysis, op: t.op }));
    const login = tools.find((t) => t.op === 'login')?.a as ToolAnalysis;
    const userArg = userParam(login);
    const secretArg = secretParam(login);
    const notes: string[] = [];

    // Tools that need a session. Rule: a description that says so ("requires login", "must be
    // authenticated", "can only be done by the logged in user"); and, because the document has a
    // login tool, every write in the login tool's area — its OpenAPI tags when it has any, else
    // the whole document — since a document that offers a login guards its changes with it.
    // Reads are guarded only when their description says so: a catalogue is usually public.
    const loginArea = areaOf(login);
    const mine = new Set(claim.tools);
    const guarded: ToolAnalysis[] = [];
    for (const a of input.allAnalyses) {
      if (mine.has(a.tool.name) || a.words.some((w) => BEFORE_SESSION.has(w))) continue;
      const said = NEEDS_SESSION.test(a.tool.description) || a.params.some((p) => NEEDS_SESSION.test(describe(p.schema)));
      const area = areaOf(a);
      const sameArea = loginArea === undefined || (area !== undefined && area.some((t) => loginArea.includes(t)));
      if (said || (sameArea && isWrite(a))) guarded.push(a);
    }
    // Tools that take the token the login hands out (`get_history(access_token)`). The token is
    // the session's, not a fact about records: the call needs the login of this session, and its
    // argument must be the token that login minted (a precondition), so a task passes it on from
    // the login's output and no user is asked for it.
    const tokenOuts = tokenOutputs(login);
    let tokenTools = input.allAnalyses
      // A tool that takes the token comes after a login, whatever its name says (`register_card`).
      .filter((a) => !mine.has(a.tool.name))
      .map((a) => ({ a, params: tokenParams(a, tokenOuts) }))
      .filter((x) => x.params.length > 0);

    let layout = input.sample !== undefined ? sampleLayout(input.sample, login.params.map((p) => p.name)) : undefined;
    const state: FamilyPlan['state'] = {};
    if (layout !== undefined) {
      for (const k of layout.adopted) {
        const v = layout.seed[k] as JsonValue;
        const t = typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';
        state[k] = { schema: { type: [t, 'null'] }, value: v };
      }
    } else {
      // A generated session starts logged in when other tools need one: their own self-checks
      // (and tasks that do not start with a login) can then run; logout and login still switch it.
      const key = pickKey(input.takenKeys);
      const example = userArg !== undefined ? credentialValue(userArg, login.params.find((p) => p.name === userArg)?.schema ?? {}, input.seed) : null;
      const needed = guarded.length > 0 || tokenTools.length > 0;
      const seed: Json = { logged_in: needed, user: needed ? example : null };
      const hasToken = tokenOuts.length > 0 || Object.keys(propsOf(login.tool.outputSchema)).some((k) => nameWords(k).includes('token'));
      layout = { key, flag: [key, 'logged_in'], user: [key, 'user'], adopted: [], seed };
      if (hasToken) {
        seed.token = needed ? 'seed-session' : null;
        layout.token = [key, 'token'];
      }
      const properties: Record<string, JsonSchemaObject> = { logged_in: { type: 'boolean' }, user: {}, ...(hasToken ? { token: { type: ['string', 'null'] } } : {}) };
      state[key] = { schema: { type: 'object', properties, required: ['logged_in'] }, value: seed };
    }

    // Credentials: against the sample's user records, or, without a sample, against the records a
    // create-user tool of the document writes (found at run time).
    if (userArg !== undefined) {
      if (input.sample !== undefined) {
        const users = sampleUsers(input.sample, userArg, secretArg);
        if (users !== undefined) layout.users = users;
      }
    }
    const creator =
      input.sample === undefined && userArg !== undefined
        ? input.allAnalyses.find((a) => !mine.has(a.tool.name) && a.verbClass === 'create' && a.params.some((p) => p.name === userArg) && (secretArg === undefined || a.params.some((p) => p.name === secretArg)))
        : undefined;
    if (creator !== undefined && userArg !== undefined) {
      layout.users = { key: null, userField: userArg, ...(secretArg !== undefined ? { secretField: secretArg } : {}) };
    }

    const seededIn = Boolean(layout.flag.length === 1 ? layout.seed[layout.flag[0] as string] : layout.seed.logged_in);
    // Self-checks pass the seed session's token; without one known before any call (a sample
    // seeded logged out), the token parameters stay plain parameters.
    const tokenPath = layout.token;
    const tokenAt = tokenPath === undefined ? undefined : tokenPath.length === 1 ? layout.seed[tokenPath[0] as string] : layout.seed.token;
    const seedToken = seededIn && typeof tokenAt === 'string' && tokenAt !== '' ? tokenAt : undefined;
    if (tokenTools.length > 0 && (seedToken === undefined || tokenPath === undefined)) {
      notes.push(`token parameters left as plain parameters (${tokenTools.map((x) => `${x.a.tool.name}.${x.params.join(',')}`).join('; ')}): the seed session holds no token`);
      tokenTools = [];
    }
    for (const { a } of tokenTools) if (!guarded.includes(a)) guarded.push(a);
    const copy = login.params
      .filter((p) => p.name !== userArg && p.name !== secretArg && layout.adopted.some((k) => normName(k) === normName(p.name)))
      .map((p) => ({ arg: p.name, path: [layout.adopted.find((k) => normName(k) === normName(p.name)) as string] }));

    const planned: Record<string, PlannedTool> = {};
    const outputs = new Map(tools.map((t) => [t.a.tool.name, outputOf(t.a, t.op, layout)]));
    const status = tools.find((t) => t.op === 'status');
    const logout = tools.find((t) => t.op === 'logout');
    const statusOut = status !== undefined ? outputs.get(status.a.tool.name) : undefined;

    // The probe login: a seeded user, a user a create tool makes first, or any credentials.
    const loginArgs: Json = {};
    const setup: { name: string; args: Json }[] = [];
    let shownUser: JsonValue | undefined;
    if (userArg !== undefined) {
      const userSchema = login.params.find((p) => p.name === userArg)?.schema ?? {};
      const first = layout.users?.first;
      shownUser = first !== undefined && layout.users?.userField ? (first[layout.users.userField] as JsonValue) : credentialValue(userArg, userSchema, input.seed);
      loginArgs[userArg] = shownUser;
      if (secretArg !== undefined) {
        const secretField = layout.users?.secretField;
        const secretSchema = login.params.find((p) => p.name === secretArg)?.schema ?? {};
        loginArgs[secretArg] = first !== undefined && secretField !== undefined ? (first[secretField] as JsonValue) : credentialValue(secretArg, secretSchema, input.seed);
      }
      if (creator !== undefined) {
        setup.push({ name: creator.tool.name, args: requiredArgs(creator, { [userArg]: shownUser, ...(secretArg !== undefined ? { [secretArg]: loginArgs[secretArg] as JsonValue } : {}) }, input.seed) });
      }
    }
    const filled = requiredArgs(login, loginArgs, input.seed);
    // A generated session whose login accepts any credentials, among them some a person cannot
    // make up (an id, a secret, a token, a key), keeps one valid set in the state (`account`): a
    // task's user then states credentials that exist. A username and password can be stated as
    // the task invents them.
    const unguessable = Object.keys(filled).some((param) => nameWords(param).some((w) => w === 'id' || w === 'secret' || w === 'token' || w === 'key'));
    const keepsAccount = layout.key !== '' && layout.users === undefined && creator === undefined && unguessable;
    if (keepsAccount) {
      const part = state[layout.key] as { schema: JsonSchemaObject; value: Json };
      part.value.account = filled;
      part.schema = { ...part.schema, properties: { ...(part.schema.properties ?? {}), account: { type: 'object' } } };
    }
    const credentialEffects = keepsAccount
      ? Object.keys(filled).map((param) => ({ action: 'reads' as const, resource: `login ${param}`, via: param, state: { path: `${layout?.key ?? ''}.account.${param}` } }))
      : [];
    const showsUser = (out: ReturnType<typeof outputOf> | undefined): string[] =>
      out?.userProp !== undefined && shownUser !== undefined && shownUser !== null ? [`${JSON.stringify(out.userProp)}:${JSON.stringify(shownUser)}`] : [];
    const inText = (out: ReturnType<typeof outputOf> | undefined, v: boolean): string[] => (out?.loggedInProp !== undefined ? [`${JSON.stringify(out.loggedInProp)}:${v}`] : []);

    const params = (op: Op): JsonValue => {
      const p: Json = { op, flag: layout.flag, copy, output: {} };
      if (layout.user !== undefined) p.user = layout.user;
      if (layout.token !== undefined) p.token = layout.token;
      if (op === 'login') {
        if (userArg !== undefined) p.userArg = userArg;
        if (secretArg !== undefined) p.secretArg = secretArg;
        if (layout.users !== undefined) {
          const u: Json = { key: layout.users.key, userField: layout.users.userField };
          if (layout.users.secretField !== undefined) u.secretField = layout.users.secretField;
          p.users = u;
        }
      }
      return p;
    };
    for (const { a, op } of tools) {
      const out = outputs.get(a.tool.name) as ReturnType<typeof outputOf>;
      const p = params(op) as Json;
      p.output = out.source;
      const probes: Probe[] = [];
      if (op === 'login') {
        const before = [...setup, ...(seededIn && logout !== undefined ? [{ name: logout.a.tool.name, args: {} }] : [])];
        const probe: Probe = { args: filled, ...(before.length > 0 ? { before } : {}) };
        // A login that mints a token changes the session even when it was open.
        if (!seededIn || logout !== undefined || layout.token !== undefined) probe.changes = true;
        const shown = [...showsUser(out), ...(out.userProp === undefined && typeof out.source.fact === 'string' && shownUser !== undefined ? [String(shownUser)] : [])];
        if (shown.length > 0) probe.outputContains = shown;
        if (status !== undefined) probe.then = [{ name: status.a.tool.name, args: {}, contains: [...inText(statusOut, true), ...showsUser(statusOut)] }];
        if (probe.outputContains !== undefined || probe.then !== undefined || probe.changes === true) probes.push(probe);
        if (layout.users?.secretField !== undefined && secretArg !== undefined && userArg !== undefined) {
          probes.push({ args: { ...filled, [secretArg]: `${String(filled[secretArg])}-wrong` }, ok: false, changes: false, ...(before.length > 0 ? { before } : {}) });
        }
      } else if (op === 'logout') {
        const before = seededIn ? [] : [...setup, { name: login.tool.name, args: filled }];
        const probe: Probe = { args: {}, changes: true, ...(before.length > 0 ? { before } : {}) };
        if (status !== undefined) probe.then = [{ name: status.a.tool.name, args: {}, contains: inText(statusOut, false) }];
        probes.push(probe, { args: {}, ok: false, changes: false, before: [...before, { name: a.tool.name, args: {} }] });
      } else {
        const contains = inText(out, seededIn);
        if (contains.length > 0) probes.push({ args: {}, changes: false, outputContains: contains });
        if (seededIn && logout !== undefined) probes.push({ args: {}, changes: false, before: [{ name: logout.a.tool.name, args: {} }], outputContains: inText(out, false) });
        else if (!seededIn) probes.push({ args: {}, changes: false, before: [...setup, { name: login.tool.name, args: filled }], outputContains: [...inText(out, true), ...showsUser(out)] });
      }
      planned[a.tool.name] = {
        implementation: { kind: 'driver', driver: 'session', version: 1, params: p },
        pattern: `session:${op}`,
        outputSchema: out.schema,
        access: op === 'status' ? 'read' : 'write',
        // The credentials are facts the records (or the user) supply: a user and their secret go together.
        effects: [{ action: op === 'login' ? 'creates' : op === 'logout' ? 'removes' : 'reads', resource: 'session' }, ...(op === 'login' ? credentialEffects : [])],
        probes: probes.filter((x) => x.ok === false || x.outputContains?.length !== 0 || x.then !== undefined || x.changes !== undefined),
      };
    }

    // Guarded tools' self-checks log in first (`setup`) when the seed session is logged out.
    const message = `${login.tool.name} first: this needs a logged-in session`;
    const preconditions: Record<string, DriverPrecondition[]> = {};
    for (const a of guarded) preconditions[a.tool.name] = [{ path: layout.flag, truthy: true, message: `Not logged in: call ${message}` }];
    const checkedParams: Record<string, Record<string, JsonValue>> = {};
    for (const { a, params: names } of tokenTools) {
      // The token the session started with stays good after a new login (a login does not revoke it).
      const checks = names.map((param) => ({ path: tokenPath as string[], arg: param, accepts: [seedToken as string], message: `Invalid ${param}: pass the ${tokenOuts[0] ?? 'token'} that ${login.tool.name} returned in this session` }));
      preconditions[a.tool.name] = [...(preconditions[a.tool.name] ?? []), ...checks];
      checkedParams[a.tool.name] = Object.fromEntries(names.map((param) => [param, seedToken as string]));
    }
    const loginSetup = seededIn ? [] : [...setup, { name: login.tool.name, args: filled }];
    notes.push(
      layout.key === '' ? `session adopted from the sample (${layout.adopted.join(', ')})` : `session in "${layout.key}", seeded ${seededIn ? 'logged in' : 'logged out'}`,
      `${guarded.length} tools need a session${guarded.length > 0 ? ` (${guarded.map((a) => a.tool.name).join(', ')})` : ''}`,
      layout.users !== undefined ? `login checks credentials against ${layout.users.key ?? 'the users collection'}` : 'login accepts any credentials (the state holds no users)',
    );
    if (tokenTools.length > 0) notes.push(`${tokenTools.length} tools take the session token ${login.tool.name} returns (${tokenTools.map((x) => `${x.a.tool.name}.${x.params.join(',')}`).join(', ')})`);
    return {
      state,
      tools: planned,
      preconditions,
      ...(loginSetup.length > 0 ? { setup: loginSetup } : {}),
      ...(tokenTools.length > 0 ? { checkedParams } : {}),
      notes,
    };
  },
};
