/**
 * Operation codes of the one host function (numbers: reading a number handle is far cheaper
 * than reading a string). Shared by the prelude and `sandbox.ts`.
 */
export const OP = {
  collections: 0,
  get: 1,
  has: 2,
  ids: 3,
  all: 4,
  find: 5,
  put: 6,
  putServed: 7,
  update: 8,
  delete: 9,
  read: 10,
  write: 11,
  idsNext: 12,
  now: 13,
  nowMs: 14,
  rngFloat: 15,
  rngInt: 16,
  text: 17,
  texts: 18,
  error: 19,
  findIds: 20,
} as const;

/**
 * The script that prepares a QuickJS context for tools. It is evaluated once per context to a
 * function `(host, maxOutputChars, timeoutMs) → { load, call }`:
 *
 * - `host(op, a, b, c)` is the one host function (`op` from `OP`); it answers db/ids/clock/rng
 *   operations of the call in progress with JSON text, a record token (`get`, `update`), a range
 *   of tokens `first × 2^26 + count` (`all`, `find`), a boolean (`has`, `delete`) or a number
 *   (`nowMs`, `rngFloat`, `rngInt`). `null` means the operation threw: `host(OP.error)` then
 *   answers `{name, message}` as JSON, rethrown here as that built-in error.
 * - Records are tokens until the tool looks inside them: `text`/`texts` fetch their JSON text
 *   then. A record returned or stored untouched never crosses the boundary as text.
 * - `load(source)` compiles a tool source into a factory, kept in the context, and answers it
 *   (to check its top level). Every call runs the factory again, so the source's top-level
 *   bindings are fresh for each call: a closure's bindings cannot be frozen, so caching `run`
 *   would let a tool keep state from one call (or session) to the next.
 * - `call(index, argsText)` runs `run(args, ctx)` of the index-th loaded tool and answers the
 *   output's JSON text, or a status after U+0001 (never the first character of JSON text):
 *   `E<json {name,message}>` thrown error, `U` undefined/not JSON, `P` a promise, `L<n>` too
 *   large, `X<json>` output that JSON.stringify rejects, `T` the deadline passed inside a long
 *   built-in (even if the tool caught that error), `r<token>` an untouched record, `R<tokens>`
 *   an array of untouched records (comma-separated).
 *
 * Before returning, it removes nondeterminism (Math.random → the step's seeded stream, Date →
 * the environment clock, UTC only; WeakRef, FinalizationRegistry, SharedArrayBuffer removed),
 * dynamic code (eval, Function constructors throw) and deep-freezes every intrinsic reachable
 * from the global object, so that no call can leave state for the next. Data properties of
 * `Object.prototype` and of the error prototypes are turned into accessors first, so that
 * assigning `obj.toString = …` or `err.name = …` on an ordinary object still works after the
 * freeze (the "override mistake").
 */
export const SANDBOX_PRELUDE: string = String.raw`(function (rawHost, maxOutputChars, timeoutMs) {
  'use strict';
  const G = globalThis;
  const O = Object;
  const freeze = O.freeze;
  const defineProperty = O.defineProperty;
  const getOwnPropertyDescriptor = O.getOwnPropertyDescriptor;
  const getPrototypeOf = O.getPrototypeOf;
  const ownKeys = Reflect.ownKeys;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const str = String;
  const OriginalFunction = Function;
  const OriginalDate = Date;
  const dateUTC = Date.UTC;
  const dateParse = Date.parse;
  const TypeErr = TypeError;
  const InternalErr = InternalError;
  const apply = Reflect.apply;
  // Originals of built-ins that get deadline checks below, for the prelude's own use.
  const strSlice = String.prototype.slice;
  const strIndexOf = String.prototype.indexOf;
  const strSplit = String.prototype.split;
  const NUL = /\u0000/;
  // The engine's own clock (the host's wall clock); only for deadlines, never given to tools.
  const realNow = Date.now;

  // Strings cross to the host as C strings: a U+0000 would cut a key short (and read another
  // record), so keys with one are refused.
  function key(v, what) {
    if (typeof v === 'string') {
      if (NUL.test(v)) throw new TypeErr(what + ' must not contain U+0000');
      return v;
    }
    if (typeof v === 'number' && v === v && v !== Infinity && v !== -Infinity) return str(v);
    throw new TypeErr(what + ' must be a string');
  }
  function text(v) {
    return v === undefined ? undefined : parse(v);
  }

  const ErrorCtors = O.assign(O.create(null), { Error, TypeError, RangeError, SyntaxError, ReferenceError, URIError, EvalError, InternalError });
  // A host operation that failed answers null; its error is then fetched and rethrown here, as
  // an instance of the built-in class of that name when there is one. Each arity has its own
  // wrapper: every argument passed costs a handle on the host side.
  function checked(r) {
    if (r !== null) return r;
    const e = parse(rawHost(${OP.error}));
    const Ctor = ErrorCtors[e.name] || ErrorCtors.Error;
    const err = new Ctor(e.message);
    if (err.name !== e.name) defineProperty(err, 'name', { value: e.name, writable: true, enumerable: false, configurable: true });
    throw err;
  }
  function host0(op) { return checked(rawHost(op)); }
  function host1(op, a) { return checked(rawHost(op, a)); }
  function host2(op, a, b) { return checked(rawHost(op, a, b)); }
  function host3(op, a, b, c) { return checked(rawHost(op, a, b, c)); }

  // Records come in as tokens and their JSON text is fetched and parsed only when the tool
  // looks inside them: a tool that returns or stores a record untouched passes its token
  // through, which saves the text's trip across the boundary and QuickJS's (slow) JSON.parse
  // and JSON.stringify. A lazy record is a Proxy over an empty "shell" object that is filled
  // on first use; every trap then forwards to the shell, so the Proxy invariants hold and it
  // behaves as the plain object it stands for.
  const ProxyCtor = Proxy;
  const shellOf = new WeakMap(); // proxy → shell
  const pendingToken = new WeakMap(); // shell → token, while not filled
  const groupOf = new WeakMap(); // shell → { first, count, texts } for records of all/find
  const Rf = Reflect;
  function textOfToken(shell, token) {
    const g = groupOf.get(shell);
    if (g === undefined) return host1(${OP.text}, token);
    // One trip for the whole list: a tool that looks into one record of a list usually scans it.
    if (g.texts === undefined) g.texts = splitTexts(host2(${OP.texts}, g.first, g.count));
    return g.texts[token - g.first];
  }
  function fill(shell) {
    const token = pendingToken.get(shell);
    if (token === undefined) return shell;
    const v = parse(textOfToken(shell, token));
    pendingToken.delete(shell);
    for (const k of ownKeys(v)) defineProperty(shell, k, { value: v[k], writable: true, enumerable: true, configurable: true });
    return shell;
  }
  const lazyHandler = freeze({
    get(s, k) { return Rf.get(fill(s), k); },
    set(s, k, v) { return Rf.set(fill(s), k, v); },
    has(s, k) { return Rf.has(fill(s), k); },
    deleteProperty(s, k) { return Rf.deleteProperty(fill(s), k); },
    ownKeys(s) { return ownKeys(fill(s)); },
    getOwnPropertyDescriptor(s, k) { return getOwnPropertyDescriptor(fill(s), k); },
    defineProperty(s, k, d) { return Rf.defineProperty(fill(s), k, d); },
    getPrototypeOf(s) { return getPrototypeOf(s); },
    setPrototypeOf(s, p) { return Rf.setPrototypeOf(fill(s), p); },
    isExtensible(s) { return Rf.isExtensible(s); },
    preventExtensions(s) { return Rf.preventExtensions(fill(s)); },
  });
  function lazyRecord(token, group) {
    if (token === undefined) return undefined;
    const shell = {};
    pendingToken.set(shell, token);
    if (group !== undefined) groupOf.set(shell, group);
    const proxy = new ProxyCtor(shell, lazyHandler);
    shellOf.set(proxy, shell);
    return proxy;
  }
  // first × 2^26 + count (one number: no string to parse) → lazy records.
  function lazyList(range) {
    const first = Math.floor(range / 67108864);
    const count = range - first * 67108864;
    const group = { first, count, texts: undefined };
    const out = [];
    for (let i = 0; i < count; i++) out.push(lazyRecord(first + i, group));
    return out;
  }
  // "<len>,<len>,…\n<text><text>…" (UTF-16 lengths) → texts.
  function splitTexts(t) {
    const nl = apply(strIndexOf, t, ['\n']);
    const out = [];
    if (nl === 0) return out;
    let pos = nl + 1;
    for (const len of apply(strSplit, apply(strSlice, t, [0, nl]), [','])) {
      const end = pos + +len;
      out.push(apply(strSlice, t, [pos, end]));
      pos = end;
    }
    return out;
  }
  // The token of a value that is an untouched lazy record, or undefined.
  function untouched(v) {
    if (v === null || typeof v !== 'object') return undefined;
    const shell = shellOf.get(v);
    return shell === undefined ? undefined : pendingToken.get(shell);
  }
  // JSON text of a value; a record the tool looked into is serialized from its shell, skipping
  // the Proxy traps. Records inside other values are filled (through the traps) as needed.
  function toText(v) {
    if (v !== null && typeof v === 'object') {
      const shell = shellOf.get(v);
      if (shell !== undefined) return stringify(fill(shell));
    }
    return stringify(v);
  }
  // The output of a call: a token status for untouched records (alone or as an array of them),
  // JSON text otherwise.
  function outputText(v) {
    if (v === null || typeof v !== 'object') return stringify(v);
    const token = untouched(v);
    if (token !== undefined) return '\u0001r' + token;
    if (Array.isArray(v) && v.length > 0) {
      const tokens = [];
      for (let i = 0; i < v.length; i++) {
        const t = untouched(v[i]);
        if (t === undefined) return toText(v);
        tokens.push(t);
      }
      return '\u0001R' + tokens.join(',');
    }
    return toText(v);
  }
  function jsonArg(v, message) {
    const t = toText(v);
    if (typeof t !== 'string') throw new TypeErr(message);
    return t;
  }

  const db = {
    collections() { return parse(host0(${OP.collections})); },
    get(c, id) { return lazyRecord(host2(${OP.get}, key(c, 'collection'), key(id, 'id'))); },
    has(c, id) { return host2(${OP.has}, key(c, 'collection'), key(id, 'id')); },
    ids(c) { return parse(host1(${OP.ids}, key(c, 'collection'))); },
    all(c) { return lazyList(host1(${OP.all}, key(c, 'collection'))); },
    find(c, where) { return lazyList(host2(${OP.find}, key(c, 'collection'), stringify(where === undefined ? {} : where))); },
    findIds(c, where) { return parse(host2(${OP.findIds}, key(c, 'collection'), stringify(where === undefined ? {} : where))); },
    put(c, id, record) {
      const col = key(c, 'collection');
      const k = key(id, 'id');
      const token = untouched(record);
      if (token !== undefined) host3(${OP.putServed}, col, k, token);
      else host3(${OP.put}, col, k, jsonArg(record, 'db.put: the record must be a JSON object'));
    },
    update(c, id, patch) {
      const col = key(c, 'collection');
      const k = key(id, 'id');
      return lazyRecord(host3(${OP.update}, col, k, jsonArg(patch, 'db.update: the patch must be a JSON object')));
    },
    delete(c, id) { return host2(${OP.delete}, key(c, 'collection'), key(id, 'id')); },
    read(k) { return text(host1(${OP.read}, key(k, 'key'))); },
    write(k, value) {
      const name = key(k, 'key');
      host2(${OP.write}, name, jsonArg(value, 'db.write: not JSON: undefined at /' + name));
    },
  };
  const ids = { next(prefix) { return host1(${OP.idsNext}, prefix === undefined ? '' : key(prefix, 'prefix')); } };
  const clock = { now() { return host0(${OP.now}); } };
  const rng = {
    float() { return host0(${OP.rngFloat}); },
    int(min, max) { return host2(${OP.rngInt}, str(min), str(max)); },
  };
  const ctx = { db, ids, clock, rng };

  // ---- deadlines inside long built-ins ---------------------------------------------------
  // QuickJS polls its interrupt handler every ~10000 calls or loop iterations, so a loop of few
  // iterations that each run a heavy built-in ('x'.repeat(1e6), a.indexOf on a huge array)
  // would outlive its deadline. These built-ins check the deadline themselves; past it they
  // throw, and keep throwing cheaply, so the loop soon reaches the engine's own interrupt.
  let deadline = Infinity;
  let timedOut = false;
  function tick() {
    if (timedOut || realNow() > deadline) {
      timedOut = true;
      throw new InternalErr('interrupted');
    }
  }
  function guard(obj, names) {
    if (!obj) return;
    for (const name of names) {
      const desc = getOwnPropertyDescriptor(obj, name);
      if (!desc || typeof desc.value !== 'function') continue;
      const f = desc.value;
      const wrapped = { [name](...args) { tick(); return apply(f, this, args); } }[name];
      defineProperty(wrapped, 'length', { value: f.length });
      defineProperty(obj, name, { value: wrapped, writable: desc.writable, enumerable: desc.enumerable, configurable: desc.configurable });
    }
  }
  guard(String.prototype, ['concat', 'endsWith', 'includes', 'indexOf', 'lastIndexOf', 'localeCompare', 'match', 'matchAll',
    'normalize', 'padEnd', 'padStart', 'repeat', 'replace', 'replaceAll', 'search', 'slice', 'split', 'startsWith',
    'substring', 'substr', 'toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'toLocaleUpperCase', 'trim', 'trimStart',
    'trimEnd', 'isWellFormed', 'toWellFormed']);
  guard(Array.prototype, ['concat', 'copyWithin', 'fill', 'flat', 'includes', 'indexOf', 'join', 'lastIndexOf', 'reverse',
    'slice', 'sort', 'splice', 'toReversed', 'toSorted', 'toSpliced', 'with', 'toString', 'unshift']);
  guard(getPrototypeOf(Int8Array.prototype), ['copyWithin', 'fill', 'includes', 'indexOf', 'join', 'lastIndexOf', 'reverse',
    'set', 'slice', 'sort', 'toReversed', 'toSorted', 'with', 'toString']);
  guard(ArrayBuffer.prototype, ['slice']);
  guard(JSON, ['parse', 'stringify']);
  guard(O, ['keys', 'values', 'entries', 'assign', 'fromEntries', 'getOwnPropertyNames', 'getOwnPropertyDescriptors']);
  guard(Array, ['from', 'of']);
  guard(String, ['fromCharCode', 'fromCodePoint', 'raw']);

  // ---- determinism: Math.random and Date ------------------------------------------------
  defineProperty(Math, 'random', { value: function random() { return host0(${OP.rngFloat}); }, writable: true, configurable: true });

  const ISO_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
  function parseUTC(s) {
    s = str(s);
    return dateParse(ISO_LOCAL.test(s) ? s + 'Z' : s);
  }
  const DateProto = OriginalDate.prototype;
  function SafeDate(...args) {
    let t;
    if (args.length === 0) t = host0(${OP.nowMs});
    else if (args.length === 1) t = typeof args[0] === 'string' ? parseUTC(args[0]) : args[0] instanceof OriginalDate ? args[0].getTime() : args[0];
    else t = dateUTC(...args);
    if (new.target === undefined) return new OriginalDate(t).toString();
    return Reflect.construct(OriginalDate, [t], new.target);
  }
  defineProperty(SafeDate, 'prototype', { value: DateProto });
  defineProperty(SafeDate, 'length', { value: 7 });
  defineProperty(SafeDate, 'name', { value: 'Date' });
  SafeDate.now = function now() { return host0(${OP.nowMs}); };
  SafeDate.parse = function parse(s) { return parseUTC(s); };
  SafeDate.UTC = dateUTC;
  defineProperty(DateProto, 'constructor', { value: SafeDate, writable: true, configurable: true });
  // Local-time methods answer in UTC: the host's time zone must not leak into outputs.
  for (const n of ['FullYear', 'Month', 'Date', 'Hours', 'Minutes', 'Seconds', 'Milliseconds']) {
    defineProperty(DateProto, 'get' + n, { value: DateProto['getUTC' + n], writable: true, configurable: true });
    defineProperty(DateProto, 'set' + n, { value: DateProto['setUTC' + n], writable: true, configurable: true });
  }
  defineProperty(DateProto, 'getDay', { value: DateProto.getUTCDay, writable: true, configurable: true });
  defineProperty(DateProto, 'getYear', { value: function getYear() { return this.getUTCFullYear() - 1900; }, writable: true, configurable: true });
  defineProperty(DateProto, 'setYear', { value: undefined, writable: true, configurable: true });
  defineProperty(DateProto, 'getTimezoneOffset', { value: function getTimezoneOffset() { return this.getTime() === this.getTime() ? 0 : NaN; }, writable: true, configurable: true });
  const toUTCString = DateProto.toUTCString;
  function parts(d) {
    // "Mon, 01 Jan 2024 00:00:00 GMT" → ["Mon", "Jan", "01", "2024", "00:00:00"]
    const m = /^(\w+), (\d+) (\w+) (-?\d+) (\d\d:\d\d:\d\d) GMT$/.exec(toUTCString.call(d));
    return m ? [m[1], m[3], m[2], m[4], m[5]] : undefined;
  }
  const localStrings = {
    toString(p) { return p[0] + ' ' + p[1] + ' ' + p[2] + ' ' + p[3] + ' ' + p[4] + ' GMT+0000'; },
    toDateString(p) { return p[0] + ' ' + p[1] + ' ' + p[2] + ' ' + p[3]; },
    toTimeString(p) { return p[4] + ' GMT+0000'; },
    toLocaleString(p) { return p[0] + ' ' + p[1] + ' ' + p[2] + ' ' + p[3] + ' ' + p[4] + ' GMT+0000'; },
    toLocaleDateString(p) { return p[0] + ' ' + p[1] + ' ' + p[2] + ' ' + p[3]; },
    toLocaleTimeString(p) { return p[4]; },
  };
  for (const name of ownKeys(localStrings)) {
    const format = localStrings[name];
    defineProperty(DateProto, name, {
      value: { [name]() { const p = parts(this); return p ? format(p) : 'Invalid Date'; } }[name],
      writable: true,
      configurable: true,
    });
  }
  defineProperty(G, 'Date', { value: SafeDate, writable: true, configurable: true });

  // ---- no dynamic code, no GC observation, no shared memory -------------------------------
  function noDynamicCode() { throw new TypeErr('dynamic code is not allowed in the sandbox'); }
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    const proto = getPrototypeOf(fn);
    const Fake = function () { return noDynamicCode(); };
    defineProperty(Fake, 'prototype', { value: proto });
    defineProperty(proto, 'constructor', { value: Fake, writable: false, configurable: false });
    if (proto === OriginalFunction.prototype) defineProperty(G, 'Function', { value: Fake, writable: true, configurable: true });
  }
  for (const name of ['eval', 'WeakRef', 'FinalizationRegistry', 'SharedArrayBuffer', 'Atomics']) delete G[name];

  // ---- the override mistake --------------------------------------------------------------
  function tame(obj, prop) {
    const desc = getOwnPropertyDescriptor(obj, prop);
    if (!desc || !('value' in desc)) return;
    const value = desc.value;
    defineProperty(obj, prop, {
      get: function () { return value; },
      set: function (v) {
        if (this === obj) throw new TypeErr('Cannot assign to read only property ' + str(prop) + ' of a frozen intrinsic');
        if (O.prototype.hasOwnProperty.call(this, prop)) this[prop] = v;
        else defineProperty(this, prop, { value: v, writable: true, enumerable: true, configurable: true });
      },
      enumerable: desc.enumerable,
      configurable: false,
    });
  }
  for (const prop of ownKeys(O.prototype)) tame(O.prototype, prop);
  for (const E of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, InternalError, AggregateError]) {
    for (const prop of ['name', 'message', 'constructor', 'toString']) tame(E.prototype, prop);
  }
  for (const prop of ['constructor', 'toString']) tame(Array.prototype, prop);
  tame(OriginalFunction.prototype, 'toString');

  // ---- deep freeze -----------------------------------------------------------------------
  const seen = new WeakSet();
  function deepFreeze(o) {
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) return;
    seen.add(o);
    freeze(o);
    for (const k of ownKeys(o)) {
      const d = getOwnPropertyDescriptor(o, k);
      if ('value' in d) deepFreeze(d.value);
      else { deepFreeze(d.get); deepFreeze(d.set); }
    }
    deepFreeze(getPrototypeOf(o));
  }
  const hidden = [
    () => [][Symbol.iterator](),
    () => new Map()[Symbol.iterator](),
    () => new Set()[Symbol.iterator](),
    () => ''[Symbol.iterator](),
    () => /a/g[Symbol.matchAll](''),
    () => (function* () {})(),
    () => (async function* () {})(),
    () => (async function () {})(),
    // The function kinds' own prototypes (%AsyncFunction.prototype%, %GeneratorFunction.prototype%,
    // %AsyncGeneratorFunction.prototype%) and their constructors, which no global names.
    () => async function () {},
    () => function* () {},
    () => async function* () {},
    () => async () => {},
    () => class {},
    () => function () {}.bind(null),
    () => [].values().map((x) => x),
    () => Iterator.from({ next() { return { done: true }; } }),
  ];
  for (const make of hidden) {
    try { deepFreeze(getPrototypeOf(make())); } catch (e) { /* not in this engine */ }
  }
  deepFreeze(ctx);
  deepFreeze(G);

  // ---- loading and calling tools ---------------------------------------------------------
  function describe(e) {
    let name = 'Error';
    let message;
    try {
      if (e !== null && typeof e === 'object') {
        name = str(e.name);
        message = str(e.message);
      } else {
        message = str(e);
      }
    } catch (e2) {
      message = 'an error that cannot be printed';
    }
    if (message.length > 4096) message = message.slice(0, 4096) + '…';
    if (name.length > 100) name = name.slice(0, 100);
    return stringify({ name, message });
  }
  const factories = [];
  function load(source) {
    const factory = OriginalFunction('"use strict";\n' + source + '\n;return typeof run === "function" ? run : undefined;');
    factories.push(factory);
    return factory;
  }
  function call(index, argsText) {
    deadline = realNow() + timeoutMs;
    timedOut = false;
    try {
      const answer = answerCall(factories[index], argsText);
      return timedOut ? '\u0001T' : answer;
    } finally {
      deadline = Infinity;
    }
  }
  function answerCall(factory, argsText) {
    let out;
    try {
      const run = factory();
      if (typeof run !== 'function') return '\u0001E' + stringify({ name: 'TypeError', message: 'the source does not define function run(args, ctx)' });
      out = run(parse(argsText), ctx);
      if (out !== null && (typeof out === 'object' || typeof out === 'function')) {
        const token = untouched(out);
        if (token !== undefined) return '\u0001r' + token;
        if (typeof out.then === 'function') return '\u0001P';
      }
    } catch (e) {
      return '\u0001E' + describe(e);
    }
    if (out === undefined) return '\u0001U';
    let t;
    try { t = outputText(out); } catch (e) { return '\u0001X' + describe(e); }
    if (typeof t !== 'string') return '\u0001U';
    if (t.length > maxOutputChars) return '\u0001L' + t.length;
    return t;
  }
  return freeze({ load, call });
})`;
