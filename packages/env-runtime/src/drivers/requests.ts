import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { DriverParamsError, defineDriver } from './driver.js';
import type { Facts } from './output-template.js';
import { fillTemplate } from './output-template.js';
import { argValue } from './settings.js';

// The `requests` driver: a write whose records nothing else in the document keeps gets a store
// of its own. `upsert` saves or updates the record under a natural key the call gives (an
// address for a phone number); `submit` files a new request under a fresh id (an escalation,
// an eligibility check handed to a reviewer) with the status it starts in.

/** The params of one requests tool. */
export interface RequestsParams {
  op: 'upsert' | 'submit';
  /** The collection holding the records. */
  collection: string;
  /** `upsert`: the argument holding the record's key. */
  keyArg?: string;
  /** The record's key field (`phone_number`, `request_id`). */
  idField: string;
  /** `submit`: the prefix of new ids. */
  idPrefix: string;
  /** The arguments stored in the record (credentials left out). */
  fields: string[];
  /** `submit`: the status a new request starts in. */
  status: string;
  /** The output: JSON where `{"$": fact}` is a fact (`id`, `record`, `status`, `created`, `message`, `ok`). */
  output: JsonValue;
  /** The message; `{id}` is the record's key, `{action}` "saved" or "updated". */
  message: string;
}

function strings(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new DriverParamsError(where, 'must be a list of argument names');
  return v as string[];
}

/** The requests driver. */
export const requestsDriver = defineDriver<RequestsParams>({
  name: 'requests',
  version: 1,
  parse(params) {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'requests params must be an object');
    const { op, collection, keyArg, idField } = params;
    if (op !== 'upsert' && op !== 'submit') throw new DriverParamsError('/op', `unknown requests op ${JSON.stringify(op)}`);
    if (typeof collection !== 'string' || collection === '') throw new DriverParamsError('/collection', 'collection must be a state key');
    if (typeof idField !== 'string' || idField === '') throw new DriverParamsError('/idField', 'idField must be a field name');
    if (op === 'upsert' && typeof keyArg !== 'string') throw new DriverParamsError('/keyArg', 'upsert needs the argument holding the key');
    const out: RequestsParams = {
      op,
      collection,
      idField,
      idPrefix: typeof params.idPrefix === 'string' ? params.idPrefix : 'req_',
      fields: strings(params.fields ?? [], '/fields'),
      status: typeof params.status === 'string' ? params.status : 'received',
      output: params.output ?? { $: 'record' },
      message: typeof params.message === 'string' ? params.message : '{id} {action}.',
    };
    if (typeof keyArg === 'string') out.keyArg = keyArg;
    return out;
  },
  compile(p, tool) {
    return (args, ctx) => {
      const payload: JsonObject = {};
      for (const f of p.fields) {
        const v = argValue(args, f, tool);
        if (v !== undefined) payload[f] = v;
      }
      let id: string;
      let record: JsonObject;
      let created: boolean;
      if (p.op === 'upsert') {
        const key = argValue(args, p.keyArg as string, tool);
        if (key === undefined || key === '' || isJsonObject(key) || Array.isArray(key)) throw new Error(`${tool.name}: ${p.keyArg as string} is required`);
        id = String(key);
        const existing = ctx.db.get(p.collection, id);
        created = existing === undefined;
        record = { ...(existing ?? {}), [p.idField]: key, ...payload, updated_at: ctx.clock.now() };
      } else {
        id = ctx.ids.next(p.idPrefix);
        created = true;
        record = { [p.idField]: id, ...payload, status: p.status, submitted_at: ctx.clock.now() };
      }
      ctx.db.put(p.collection, id, record);
      const action = p.op === 'submit' ? 'submitted' : created ? 'saved' : 'updated';
      const facts: Facts = {
        id,
        record,
        status: p.op === 'submit' ? p.status : action,
        created,
        ok: true,
        message: p.message.replace(/\{id\}/g, id).replace(/\{action\}/g, action),
      };
      return fillTemplate(p.output, facts) ?? null;
    };
  },
});
