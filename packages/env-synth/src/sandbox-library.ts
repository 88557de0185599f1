// The JavaScript that synthesized tools run inside the sandbox. Every tool's source is the
// helpers its pattern needs, its plan as a JSON literal, and `function run(args, ctx)`.
// Plain ES2015 so that any sandboxed engine runs it; no host access beyond `ctx`.
import { GENERATE_ID_SOURCE } from './id-format.js';

interface Snippet {
  deps: string[];
  source: string;
}

const SNIPPETS: Record<string, Snippet> = {
  norm: {
    deps: [],
    source: `function norm(v) {
  if (typeof v === 'string') return v.trim().toLowerCase();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v).toLowerCase();
  return JSON.stringify(v);
}`,
  },
  valuesAt: {
    deps: [],
    source: `function valuesAt(value, path) {
  var cur = [value];
  for (var i = 0; i < path.length; i++) {
    var seg = path[i], next = [];
    for (var j = 0; j < cur.length; j++) {
      var c = cur[j];
      if (c === null || typeof c !== 'object') continue;
      if (seg === '[]') { if (Array.isArray(c)) for (var k = 0; k < c.length; k++) next.push(c[k]); }
      else if (seg === '*') { if (!Array.isArray(c)) for (var key in c) next.push(c[key]); }
      else if (!Array.isArray(c) && c[seg] !== undefined) next.push(c[seg]);
    }
    cur = next;
  }
  return cur;
}`,
  },
  setAt: {
    deps: [],
    source: `function setAt(record, path, value) {
  var cur = record;
  for (var i = 0; i < path.length - 1; i++) {
    var seg = path[i];
    if (cur[seg] === null || typeof cur[seg] !== 'object' || Array.isArray(cur[seg])) cur[seg] = {};
    cur = cur[seg];
  }
  cur[path[path.length - 1]] = value;
}`,
  },
  matches: {
    deps: ['norm', 'valuesAt'],
    source: `function matches(record, id, f, arg) {
  if (arg === undefined || arg === null) return true;
  if (f.op === 'key') return norm(id) === norm(arg);
  if (f.op === 'hasKey') {
    var maps = valuesAt(record, f.path);
    for (var m = 0; m < maps.length; m++) if (maps[m] && typeof maps[m] === 'object' && maps[m][arg] !== undefined) return true;
    return false;
  }
  if (f.op === 'keywords') {
    var text = norm(JSON.stringify(f.path.length ? valuesAt(record, f.path) : record));
    var list = Array.isArray(arg) ? arg : String(arg).split(/[\\s,]+/);
    if (list.length === 0) return true;
    for (var w = 0; w < list.length; w++) if (String(list[w]).trim() && text.indexOf(norm(list[w])) >= 0) return true;
    return false;
  }
  var vals = valuesAt(record, f.path);
  for (var i = 0; i < vals.length; i++) {
    var v = vals[i];
    if (Array.isArray(v)) { vals = vals.concat(v); continue; }
    if (f.op === 'eq' && norm(v) === norm(arg)) return true;
    if (f.op === 'in' && Array.isArray(arg)) { for (var a = 0; a < arg.length; a++) if (norm(v) === norm(arg[a])) return true; }
    if (f.op === 'contains' && typeof v === 'string' && norm(v).indexOf(norm(arg)) >= 0) return true;
    if (f.op === 'min' && typeof v === 'number' && v >= Number(arg)) return true;
    if (f.op === 'max' && typeof v === 'number' && v <= Number(arg)) return true;
    if (f.op === 'prefix' && typeof v === 'string' && norm(v).indexOf(norm(arg)) === 0) return true;
  }
  return false;
}`,
  },
  scan: {
    deps: [],
    source: `function scan(ctx, collection) {
  var ids = ctx.db.ids(collection), all = ctx.db.all(collection), out = [];
  for (var i = 0; i < ids.length && i < all.length; i++) out.push({ id: ids[i], record: all[i] });
  return out;
}`,
  },
  search: {
    deps: ['matches', 'scan'],
    // Exact filters go to the host's find first when records carry their id; a case-insensitive
    // scan is the fallback, so "John" finds "john".
    source: `function search(ctx, collection, filters, args, limit, keyField) {
  var exact = {}, exactCount = 0, candidates = null;
  for (var i = 0; i < filters.length; i++) {
    var f = filters[i], a = args[f.param];
    if (a === undefined || a === null) continue;
    if (f.op === 'eq' && f.path.indexOf('[]') < 0 && f.path.indexOf('*') < 0 && (typeof a === 'string' || typeof a === 'number' || typeof a === 'boolean')) {
      exact[f.path.join('.')] = a;
      exactCount++;
    }
  }
  if (exactCount > 0 && typeof ctx.db.findIds === 'function') {
    // The host matches exact values without sending records across: ids first, records on demand.
    var ids = ctx.db.findIds(collection, exact);
    if (ids.length > 0) {
      candidates = [];
      for (var q = 0; q < ids.length; q++) candidates.push({ id: ids[q], record: ctx.db.get(collection, ids[q]) });
    }
  }
  if (candidates === null && exactCount > 0 && keyField && typeof ctx.db.find === 'function') {
    var found = ctx.db.find(collection, exact);
    if (found && found.length > 0) {
      candidates = [];
      for (var r = 0; r < found.length; r++) candidates.push({ id: String(found[r][keyField]), record: found[r] });
    }
  }
  if (candidates === null) candidates = scan(ctx, collection);
  var res = [];
  for (var k = 0; k < candidates.length; k++) {
    var ok = true;
    for (var j = 0; j < filters.length && ok; j++) ok = matches(candidates[k].record, candidates[k].id, filters[j], args[filters[j].param]);
    if (ok) res.push(candidates[k]);
    if (limit && res.length >= limit) break;
  }
  return res;
}`,
  },
  project: {
    deps: [],
    source: `function project(record, fields) {
  if (!fields || fields.length === 0) return record;
  var out = {};
  for (var i = 0; i < fields.length; i++) if (record[fields[i]] !== undefined) out[fields[i]] = record[fields[i]];
  return out;
}`,
  },
  requireRecord: {
    deps: [],
    source: `function requireRecord(ctx, collection, id, entity) {
  if (id === undefined || id === null || id === '') throw new Error(entity + ' id is required');
  var record = ctx.db.get(collection, String(id));
  if (record === undefined) throw new Error(entity + ' not found');
  return record;
}`,
  },
  checkRefs: {
    deps: ['requireRecord', 'valuesAt', 'norm'],
    // Other records the call names must exist, and must belong to the target where the state says so.
    source: `function checkRefs(ctx, refs, args, target, targetId) {
  var owners = {};
  for (var i = 0; i < refs.length; i++) {
    var r = refs[i], arg = args[r.param];
    if (arg === undefined || arg === null) continue;
    var list = Array.isArray(arg) ? arg : [arg];
    for (var j = 0; j < list.length; j++) {
      var id = String(list[j]);
      if (r.collection) {
        var rec = requireRecord(ctx, r.collection, id, r.entity);
        owners[r.param] = rec;
        if (target && r.targetField) {
          var have = valuesAt(target, r.targetField);
          if (have.length > 0 && have.map(norm).indexOf(norm(id)) < 0) throw new Error(r.entity + ' ' + id + ' does not match the ' + r.targetEntity);
        }
        if (target && r.ownerField) {
          var owned = valuesAt(rec, r.ownerField);
          if (owned.map(norm).indexOf(norm(targetId)) < 0) throw new Error(r.targetEntity + ' ' + targetId + ' does not belong to ' + r.entity + ' ' + id);
        }
      } else if (r.nestedIn) {
        var holders = r.nestedIn === 'target' ? [target] : [];
        if (r.nestedIn !== 'target') {
          var owner = r.ownerParam ? owners[r.ownerParam] : undefined;
          if (owner) holders = [owner];
          else if (r.ownerOf && target) {
            var ownerIds = valuesAt(target, r.ownerOf.path);
            if (ownerIds.length > 0) { var o = ctx.db.get(r.ownerOf.collection, String(ownerIds[0])); if (o) holders = [o]; }
          }
          if (holders.length === 0 && r.scanCollection) holders = ctx.db.all(r.scanCollection);
        }
        if (holders.length === 0) continue;
        var found = false;
        for (var h = 0; h < holders.length && !found; h++) {
          var ids = valuesAt(holders[h], r.path);
          for (var k = 0; k < ids.length; k++) if (norm(ids[k]) === norm(id)) { found = true; break; }
        }
        if (!found) throw new Error(r.entity + ' ' + id + ' not found');
      }
    }
  }
}`,
  },
  guards: {
    deps: ['valuesAt', 'norm'],
    source: `function checkGuards(record, guards, entity) {
  for (var i = 0; i < guards.length; i++) {
    var g = guards[i];
    var v = valuesAt(record, g.path)[0];
    if (g.oneOf) {
      var ok = false;
      for (var j = 0; j < g.oneOf.length; j++) if (norm(v) === norm(g.oneOf[j])) ok = true;
      if (!ok) throw new Error(entity + ' ' + g.path.join('.') + ' is ' + JSON.stringify(v === undefined ? null : v) + '; must be ' + g.oneOf.join(' or '));
    }
    if (g.not !== undefined && norm(v) === norm(g.not)) throw new Error(entity + ' is already ' + g.not);
  }
}`,
  },
  fill: {
    deps: [],
    // Completes a value against a schema: missing required fields get empty values of their type.
    source: `function fill(value, schema, now) {
  if (!schema || typeof schema !== 'object') return value;
  var t = Array.isArray(schema.type) ? schema.type.filter(function (x) { return x !== 'null'; })[0] : schema.type;
  if (value === undefined) {
    if (schema.default !== undefined) return schema.default;
    if (schema.enum && schema.enum.length) return schema.enum[0];
    if (Array.isArray(schema.type) && schema.type.indexOf('null') >= 0) return null;
    if (t === 'string') return '';
    if (t === 'number' || t === 'integer') return 0;
    if (t === 'boolean') return false;
    if (t === 'array') return [];
    if (t === 'object') value = {};
    else return null;
  }
  if (t === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    var req = schema.required || [];
    for (var i = 0; i < req.length; i++) {
      var p = schema.properties ? schema.properties[req[i]] : undefined;
      if (value[req[i]] === undefined) value[req[i]] = fill(undefined, p, now);
      else if (p) value[req[i]] = fill(value[req[i]], p, now);
    }
  }
  if (t === 'array' && Array.isArray(value) && schema.items) {
    for (var k = 0; k < value.length; k++) value[k] = fill(value[k], schema.items, now);
  }
  return value;
}`,
  },
  genId: { deps: [], source: GENERATE_ID_SOURCE },
  newId: {
    deps: ['genId'],
    source: `function newId(ctx, collection, format, prefix) {
  if (format) {
    for (var i = 0; i < 50; i++) {
      var id = genId(format, ctx);
      if (!ctx.db.has(collection, id)) return id;
    }
  }
  var next = ctx.ids.next(prefix);
  while (ctx.db.has(collection, next)) next = ctx.ids.next(prefix);
  return next;
}`,
  },
  enrich: {
    deps: [],
    // Elements that name another record (\`flight_number\`) must name an existing one, and take
    // the fields they lack from it.
    source: `function enrich(ctx, value, enrichments) {
  for (var i = 0; i < enrichments.length; i++) {
    var e = enrichments[i];
    var list = value[e.field];
    if (!Array.isArray(list)) continue;
    for (var j = 0; j < list.length; j++) {
      var el = list[j];
      if (!el || typeof el !== 'object') continue;
      var ref = el[e.key];
      if (ref === undefined) continue;
      var src = ctx.db.get(e.collection, String(ref));
      if (!src) throw new Error(e.entity + ' ' + ref + ' not found');
      for (var k = 0; k < e.copy.length; k++) if (el[e.copy[k]] === undefined && src[e.copy[k]] !== undefined) el[e.copy[k]] = src[e.copy[k]];
    }
  }
}`,
  },
  findNested: {
    deps: ['norm'],
    source: `function findNested(ctx, collection, nested, id) {
  var ids = ctx.db.ids(collection), all = ctx.db.all(collection);
  for (var i = 0; i < ids.length; i++) {
    var rec = all[i];
    var holder = rec ? rec[nested.field] : undefined;
    if (!holder || typeof holder !== 'object') continue;
    if (nested.kind === 'map') {
      if (holder[id] !== undefined) return { parentId: ids[i], parent: rec, value: holder[id] };
    } else if (Array.isArray(holder)) {
      for (var j = 0; j < holder.length; j++) if (holder[j] && norm(holder[j][nested.keyField]) === norm(id)) return { parentId: ids[i], parent: rec, value: holder[j] };
    }
  }
  return undefined;
}`,
  },
  runLookup: {
    deps: ['requireRecord', 'checkRefs', 'findNested'],
    source: `function runLookup(P, args, ctx) {
  if (P.valueKey) {
    var v = ctx.db.read(P.valueKey);
    return v === undefined ? null : v;
  }
  var id = args[P.param];
  if (P.anyOf) {
    for (var i = 0; i < P.anyOf.length; i++) {
      var hit = ctx.db.get(P.anyOf[i], String(id));
      if (hit !== undefined) return hit;
    }
    throw new Error('no record has id ' + JSON.stringify(id === undefined ? null : id));
  }
  if (P.nested) {
    var found = findNested(ctx, P.collection, P.nested, String(id));
    if (!found) throw new Error(P.entity + ' not found');
    return found.value;
  }
  var record = requireRecord(ctx, P.collection, id, P.entity);
  checkRefs(ctx, P.refs, args, record, String(id));
  if (P.select) {
    var key = args[P.select.param];
    if (key !== undefined && key !== null) {
      var map = record[P.select.field];
      if (!map || map[key] === undefined) throw new Error(P.entity + ' has no ' + P.select.param + ' ' + JSON.stringify(key));
      return map[key];
    }
  }
  return record;
}`,
  },
  runFind: {
    deps: ['search'],
    source: `function runFind(P, args, ctx) {
  var hits = search(ctx, P.collection, P.filters, args, P.returns === 'records' ? 0 : 1, P.keyField);
  if (P.returns === 'records') {
    var out = [];
    for (var i = 0; i < hits.length; i++) out.push(hits[i].record);
    return out;
  }
  if (hits.length === 0) throw new Error(P.entity + ' not found');
  return P.returns === 'id' ? hits[0].id : hits[0].record;
}`,
  },
  runList: {
    deps: ['search', 'project'],
    source: `function runList(P, args, ctx) {
  var limit = P.limitParam && typeof args[P.limitParam] === 'number' && args[P.limitParam] > 0 ? args[P.limitParam] : P.maxResults;
  var hits = search(ctx, P.collection, P.filters, args, limit, P.keyField);
  var out = [];
  for (var i = 0; i < hits.length; i++) out.push(project(hits[i].record, P.fields));
  return out;
}`,
  },
  runCreate: {
    deps: ['checkRefs', 'newId', 'setAt', 'fill', 'enrich'],
    source: `function runCreate(P, args, ctx) {
  checkRefs(ctx, P.refs, args, undefined, undefined);
  var id;
  if (P.idParam && args[P.idParam] !== undefined && args[P.idParam] !== null && args[P.idParam] !== '') {
    id = String(args[P.idParam]);
    if (ctx.db.has(P.collection, id)) throw new Error(P.entity + ' ' + id + ' already exists');
  } else id = newId(ctx, P.collection, P.idFormat, P.entity + '_');
  var record = {};
  if (P.keyField) record[P.keyField] = id;
  for (var i = 0; i < P.assign.length; i++) {
    var a = P.assign[i];
    if (args[a.param] !== undefined) setAt(record, a.path, JSON.parse(JSON.stringify(args[a.param])));
  }
  for (var c = 0; c < P.constants.length; c++) setAt(record, P.constants[c].path, P.constants[c].value);
  var now = ctx.clock.now();
  for (var t = 0; t < P.timestamps.length; t++) setAt(record, P.timestamps[t], now);
  enrich(ctx, record, P.enrich);
  record = fill(record, P.schema, now);
  ctx.db.put(P.collection, id, record);
  for (var b = 0; b < P.backrefs.length; b++) {
    var br = P.backrefs[b], ownerId = args[br.param];
    if (ownerId === undefined || ownerId === null) continue;
    var owner = ctx.db.get(br.collection, String(ownerId));
    if (!owner) continue;
    var list = Array.isArray(owner[br.field]) ? owner[br.field].slice() : [];
    list.push(id);
    var patch = {};
    patch[br.field] = list;
    ctx.db.update(br.collection, String(ownerId), patch);
  }
  return ctx.db.get(P.collection, id);
}`,
  },
  runUpdate: {
    deps: ['requireRecord', 'checkRefs', 'guards', 'setAt', 'valuesAt', 'norm', 'enrich'],
    source: `function runUpdate(P, args, ctx) {
  if (P.valueKey) {
    ctx.db.write(P.valueKey, P.toggle ? !ctx.db.read(P.valueKey) : P.value);
    return ctx.db.read(P.valueKey);
  }
  var id = String(args[P.param]);
  var record = requireRecord(ctx, P.collection, args[P.param], P.entity);
  checkRefs(ctx, P.refs, args, record, id);
  checkGuards(record, P.guards, P.entity);
  var changed = false;
  for (var i = 0; i < P.assign.length; i++) {
    var a = P.assign[i], v = args[a.param];
    if (v === undefined) continue;
    v = JSON.parse(JSON.stringify(v));
    if (a.sort && Array.isArray(v)) v.sort();
    setAt(record, a.path, v);
    changed = true;
  }
  for (var s = 0; s < P.swaps.length; s++) {
    var sw = P.swaps[s], from = args[sw.fromParam], to = args[sw.toParam];
    if (!Array.isArray(from) || !Array.isArray(to)) continue;
    if (from.length !== to.length) throw new Error(sw.fromParam + ' and ' + sw.toParam + ' must have the same length');
    var list = record[sw.field] || [];
    var used = [];
    for (var f = 0; f < from.length; f++) {
      var idx = -1;
      for (var e = 0; e < list.length; e++) if (used.indexOf(e) < 0 && norm(list[e][sw.keyField]) === norm(from[f])) { idx = e; break; }
      if (idx < 0) throw new Error(sw.entity + ' ' + from[f] + ' not found in ' + P.entity);
      used.push(idx);
      list[idx][sw.keyField] = to[f];
      if (sw.source) {
        var src = findSource(ctx, sw.source, String(to[f]));
        if (!src) throw new Error(sw.entity + ' ' + to[f] + ' not found');
        for (var k in src) if (list[idx][k] !== undefined && k !== sw.keyField && typeof src[k] === typeof list[idx][k]) list[idx][k] = src[k];
      }
    }
    record[sw.field] = list;
    changed = true;
  }
  if (P.status) {
    var current = valuesAt(record, P.status.path)[0];
    if (norm(current) === norm(P.status.value)) throw new Error(P.entity + ' is already ' + P.status.value);
    setAt(record, P.status.path, P.status.value);
    changed = true;
  }
  for (var c = 0; c < P.constants.length; c++) { setAt(record, P.constants[c].path, P.constants[c].value); changed = true; }
  for (var g = 0; g < P.toggles.length; g++) { setAt(record, P.toggles[g], !valuesAt(record, P.toggles[g])[0]); changed = true; }
  if (P.enrich.length > 0) enrich(ctx, record, P.enrich);
  if (changed) ctx.db.put(P.collection, id, record);
  return ctx.db.get(P.collection, id);
  function findSource(ctx, source, key) {
    var all = ctx.db.all(source.collection);
    for (var i = 0; i < all.length; i++) {
      var rec = all[i];
      var holder = rec ? rec[source.field] : undefined;
      if (holder && typeof holder === 'object' && !Array.isArray(holder) && holder[key]) return holder[key];
    }
    return undefined;
  }
}`,
  },
  runDelete: {
    deps: ['requireRecord', 'checkRefs', 'guards'],
    source: `function runDelete(P, args, ctx) {
  var id = String(args[P.param]);
  var record = requireRecord(ctx, P.collection, args[P.param], P.entity);
  checkRefs(ctx, P.refs, args, record, id);
  checkGuards(record, P.guards, P.entity);
  ctx.db.delete(P.collection, id);
  for (var b = 0; b < P.backrefs.length; b++) {
    var br = P.backrefs[b], ownerId = record[br.fkField];
    if (ownerId === undefined || ownerId === null) continue;
    var owner = ctx.db.get(br.collection, String(ownerId));
    if (!owner || !Array.isArray(owner[br.field])) continue;
    var patch = {};
    patch[br.field] = owner[br.field].filter(function (x) { return x !== id; });
    ctx.db.update(br.collection, String(ownerId), patch);
  }
  return record;
}`,
  },
  runCompute: {
    deps: [],
    // A recursive-descent parser for + - * / % ** and parentheses over decimal numbers (Python
    // precedence; % floors like Python's); no eval. Results are rounded to 2 decimals.
    source: `function runCompute(P, args, ctx) {
  var text = String(args[P.param] === undefined ? '' : args[P.param]);
  if (!/^[0-9+\\-*/%().\\s eE]*$/.test(text)) throw new Error('invalid characters in expression');
  var pos = 0;
  function peek() { while (text.charAt(pos) === ' ' || text.charAt(pos) === '\\t' || text.charAt(pos) === '\\n') pos++; return text.charAt(pos); }
  function expr() {
    var v = term();
    for (;;) { var c = peek(); if (c === '+') { pos++; v += term(); } else if (c === '-') { pos++; v -= term(); } else return v; }
  }
  function term() {
    var v = unary();
    for (;;) {
      var c = peek();
      if (c === '*' && text.charAt(pos + 1) !== '*') { pos++; v *= unary(); }
      else if (c === '/') { pos++; var d = unary(); if (d === 0) throw new Error('division by zero'); v /= d; }
      else if (c === '%') { pos++; var m = unary(); if (m === 0) throw new Error('division by zero'); v = v - m * Math.floor(v / m); }
      else return v;
    }
  }
  // As in Python: unary minus binds looser than **, and ** is right-associative (-2**2 = -4).
  function unary() {
    var c = peek();
    if (c === '-') { pos++; return -unary(); }
    if (c === '+') { pos++; return unary(); }
    return power();
  }
  function power() {
    var b = atom();
    if (peek() === '*' && text.charAt(pos + 1) === '*') { pos += 2; return Math.pow(b, unary()); }
    return b;
  }
  function atom() {
    var c = peek();
    if (c === '(') { pos++; var v = expr(); if (peek() !== ')') throw new Error('missing )'); pos++; return v; }
    var m = /^(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?/.exec(text.slice(pos));
    if (!m) throw new Error('unexpected ' + (c === '' ? 'end of expression' : JSON.stringify(c)));
    pos += m[0].length;
    return parseFloat(m[0]);
  }
  var result = expr();
  if (peek() !== '') throw new Error('unexpected ' + JSON.stringify(peek()));
  if (!isFinite(result)) throw new Error('result is not a finite number');
  return Math.round(result * 100) / 100;
}`,
  },
  runNoop: {
    deps: [],
    source: `function runNoop(P, args, ctx) {
  return P.message;
}`,
  },
  runFallback: {
    deps: ['search'],
    // Read-only: the records that any argument names, by id or by a field of the same name.
    source: `function runFallback(P, args, ctx) {
  var matches = [];
  for (var i = 0; i < P.idLookups.length; i++) {
    var l = P.idLookups[i], v = args[l.param];
    var list = Array.isArray(v) ? v : [v];
    for (var j = 0; j < list.length; j++) {
      if (list[j] === undefined || list[j] === null) continue;
      for (var c = 0; c < l.collections.length; c++) {
        var rec = ctx.db.get(l.collections[c], String(list[j]));
        if (rec !== undefined) matches.push({ collection: l.collections[c], id: String(list[j]), record: rec });
      }
    }
  }
  for (var k = 0; k < P.fieldLookups.length && matches.length < 10; k++) {
    var f = P.fieldLookups[k];
    if (args[f.param] === undefined || args[f.param] === null) continue;
    var hits = search(ctx, f.collection, [{ param: f.param, path: f.path, op: 'eq' }], args, 10 - matches.length, f.keyField);
    for (var h = 0; h < hits.length; h++) matches.push({ collection: f.collection, id: hits[h].id, record: hits[h].record });
  }
  return { tool: P.tool, supported: false, note: P.note, matches: matches };
}`,
  },
};

/** The source of the named helpers and everything they depend on, in dependency order. */
export function librarySource(entry: string): string {
  const order: string[] = [];
  const visit = (name: string): void => {
    if (order.includes(name)) return;
    const s = SNIPPETS[name];
    if (!s) throw new Error(`env-synth: unknown sandbox helper ${name}`);
    for (const d of s.deps) visit(d);
    order.push(name);
  };
  visit(entry);
  return order.map((n) => (SNIPPETS[n] as Snippet).source).join('\n');
}
