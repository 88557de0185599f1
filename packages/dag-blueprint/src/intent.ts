import type { JsonObject, JsonValue, Rng, ToolSpec, UserFact } from '@autoforge/core';
import { createRng, idReference, isJsonObject, nameVerb, singularize, splitWords, verbClassOf } from '@autoforge/core';
import type { ArgSource, Blueprint, BlueprintNode, ReasoningNode, ReasoningParams, ToolNode } from './blueprint.js';
import type { Grammar } from './grammar.js';
import {
  ASK_AFTER_FORMS,
  ASK_EITHER_WAY_FORMS,
  ASK_FORMS,
  CHEAPEST_FORMS,
  COMPARE_FORMS,
  CONDITION_FORMS,
  COUNT_ALL_FORMS,
  COUNT_FORMS,
  createGrammar,
  DEAREST_FORMS,
  EARLIEST_FORMS,
  EXTREME_FORMS,
  FIRST_GOAL_LEADS,
  IDENTITY_FORMS,
  IF_ASKED_FORMS,
  IN_MIND_FORMS,
  joinList,
  LATEST_FORMS,
  NAME_FORMS,
  NEXT_GOAL_LEADS,
  ordinal,
  plural,
  quoted,
  SELECT_FORMS,
  speak,
  STATUS_FORMS,
  SUM_FORMS,
  WITH_FORMS,
} from './grammar.js';
import type { IdContext, IdHolder } from './record-description.js';
import { classifyId, describeHolder, holderOfObject } from './record-description.js';
import { elementNoun, words } from './words.js';
import type { Meaning } from '@autoforge/env-synth/values';
import { meaningOf } from '@autoforge/env-synth/values';
import { itemField } from './item-fields.js';

/** The value a task reports: `readPath(value of node, path)`. */
export interface IntentAnswer {
  node: string;
  path: string;
  value: JsonValue;
}

/** What {@link realizeIntent} needs: the blueprint and what compiling it chose. */
export interface IntentInput {
  blueprint: Blueprint;
  /** The nodes in execution (topological) order. */
  order: readonly BlueprintNode[];
  userFacts: readonly UserFact[];
  /** The resolved params of each reasoning node. */
  resolved: ReadonlyMap<string, ReasoningParams>;
  /** What the user wants to be told, for read-only and conditional tasks. */
  answer?: IntentAnswer;
  /**
   * Tools that touch no state (a calculator's, declared `effects: []`): each call is a step the
   * user asks for, with the values they state, like a write. Default: none.
   */
  pure?: ReadonlySet<string>;
  /** The stream that picks surface forms. Default: a stream of the blueprint's id. */
  rng?: Rng;
  /**
   * The seed state and its collections: with them, ids a user would not know (an item id inside
   * an order, a generated key) are described by the record's attributes instead of stated.
   * Default: none (every value is stated).
   */
  state?: JsonObject;
  collections?: readonly string[];
  /** The environment's tools: their descriptions tell verbs of names that have none. Default: none. */
  tools?: readonly ToolSpec[];
  /** The record each reasoning node chose (compileTask's views): described when its criterion is an id. Default: none. */
  chosen?: ReadonlyMap<string, JsonValue>;
}

/** An intent and the values it states verbatim (what a rewrite must keep). */
export interface RealizedIntent {
  text: string;
  /** Every value the text states verbatim: stated facts, criterion values and the attributes of described records. */
  mentions: string[];
  /** Facts (by key) whose value is an internal id, described by the record's attributes instead. */
  described: string[];
  /** Facts (by key) whose value is an internal id that no description tells apart, so it is stated. */
  keptIds: string[];
}

/** A value as a user states it: strings as they are, everything else as JSON. */
export function mention(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// Shell-style verbs a tool name may use, in plain words.
const PLAIN_VERBS: Record<string, { verb: string; object?: string }> = {
  mv: { verb: 'move' },
  cp: { verb: 'copy' },
  rm: { verb: 'delete', object: 'file' },
  rmdir: { verb: 'remove', object: 'directory' },
  mkdir: { verb: 'create', object: 'directory' },
  touch: { verb: 'create', object: 'file' },
  cd: { verb: 'go into', object: 'directory' },
  ls: { verb: 'list', object: 'files' },
  cat: { verb: 'show', object: 'file' },
  echo: { verb: 'write', object: 'text' },
  grep: { verb: 'search', object: 'file' },
  wc: { verb: 'count', object: 'words' },
  du: { verb: 'measure', object: 'disk usage' },
  pwd: { verb: 'show', object: 'current directory' },
  login: { verb: 'log in' },
  logout: { verb: 'log out' },
  signin: { verb: 'sign in' },
  signout: { verb: 'sign out' },
  turnon: { verb: 'turn on' },
  turnoff: { verb: 'turn off' },
  switchon: { verb: 'switch on' },
  switchoff: { verb: 'switch off' },
  checkin: { verb: 'check in' },
  checkout: { verb: 'check out' },
  lookup: { verb: 'look up' },
};
// Abbreviations of names spelled out.
const SPELLED: Record<string, string> = { max: 'maximum', min: 'minimum', avg: 'average', num: 'number', abs: 'absolute', sqrt: 'square root', std: 'standard', info: 'information', qty: 'quantity', addr: 'address', msg: 'message', dir: 'directory', img: 'image', doc: 'document', calc: 'calculation' };
// Words of a name that say nothing about what it acts on.
const FILLER = new Set(['all', 'details', 'detail', 'info', 'information', 'data', 'by', 'for', 'of', 'the', 'a', 'an', 'new', 'api', 'tool']);
// Facts that name a person or an account.
const PERSONAL = /(^|_)(name|email|phone|user|username|login|owner|customer|account|member|guest|patient|author|passenger)(_|$)/i;
// Parameters that say where something goes or comes from.
const DIRECTION = /^(destination|dest|target|to|source|from|origin)( (path|folder|directory|dir|location))?$/;
// Parameters that switch what one tool does (`method: create|update|delete`).
const SWITCH = /^(method|action|operation|op|mode|command)$/;
// Fields whose values read as a state of the record ("pending", "delivered").
const STATUS_FIELD = /(^|_)(status|state|stage|condition|availability)$/;
const PRICE_KEY = /(^|_)(price|cost|fee|fare|amount|total|charge|rate)$/;
const DATE_KEY = /(^|_)(date|time|timestamp|day)$|_at$|^(created|updated|modified)$/;

/**
 * The offline intent: the user's instructions in the second person, as benchmark task authors
 * write them, realized from a small grammar whose forms the task's seeded stream picks (same
 * inputs and stream → the same text). It says who the user is (the facts they identify themselves
 * with), what they want done (each write, with the criterion of every reasoning step that chooses
 * its arguments as a preference — "the cheapest one", "whichever of your orders is pending" — and
 * the values they state), the condition of a conditional write, what they want to be told, and
 * last, in a sentence that starts with "If asked", the facts they give only when asked.
 *
 * Nothing in it comes from a tool's name as written, no argument list, no JSON. Ids a user holds
 * (an order number, a ticket number, a username, a file name) are stated; ids a user would not
 * know (an item id inside an order, a payment method's id, a catalog record's key, a generated
 * key) are described by the record's name and the attributes that tell it apart (with `state`);
 * such an id is stated only when no description tells the record apart (`keptIds`). Every
 * stated fact's and criterion's value appears verbatim (`mentions`); the answer never does.
 */
export function realizeIntent(input: IntentInput): RealizedIntent {
  return new Realizer(input).run();
}

class Realizer {
  private readonly g: Grammar;
  private readonly byId: Map<string, BlueprintNode>;
  private readonly facts: Map<string, UserFact>;
  private readonly tools: Map<string, ToolSpec>;
  private readonly pure: ReadonlySet<string>;
  private readonly idContext: IdContext | undefined;
  private readonly nouns: string[];
  private readonly mentions = new Set<string>();
  private readonly described = new Set<string>();
  private readonly keptIds = new Set<string>();
  /** Reasoning nodes said already. */
  private readonly said = new Set<string>();
  private readonly usedFacts = new Set<string>();
  /** Pure steps in order, for "the result of the second step". */
  private readonly steps: string[] = [];

  constructor(private readonly input: IntentInput) {
    this.g = createGrammar(input.rng ?? createRng(input.blueprint.id, 'intent'));
    this.byId = new Map(input.blueprint.nodes.map((n) => [n.id, n]));
    this.facts = new Map(input.userFacts.map((f) => [f.key, f]));
    this.tools = new Map((input.tools ?? []).map((t) => [t.name, t]));
    this.pure = input.pure ?? new Set<string>();
    // What says whose records are the user's: the facts they are looked up by, and any fact that
    // names a person or an account (the username they log in with owns the tickets they opened).
    const identity = input.userFacts.filter((f) => this.isReadFact(f.key) || PERSONAL.test(baseKey(f.key))).map((f) => f.value);
    this.idContext = input.state ? { state: input.state, collections: input.collections ?? Object.keys(input.state), identity } : undefined;
    this.nouns = (input.collections ?? (input.state ? Object.keys(input.state) : [])).map((c) => singularize(c));
  }

  run(): RealizedIntent {
    const { order, answer, blueprint } = this.input;
    const sentences: string[] = [];
    const identity = this.input.userFacts.filter((f) => this.isReadFact(f.key) && this.carriedFact(f.key) === undefined);
    const identitySentence = this.identity(identity);
    if (identitySentence !== undefined) sentences.push(identitySentence);

    const feedsWrite = new Set<string>();
    for (const node of order) {
      if (node.kind !== 'tool' || node.access !== 'write') continue;
      for (const s of Object.values(node.args)) if ('from' in s) feedsWrite.add(s.from);
    }
    let goals = 0;
    for (const node of order) {
      if (node.kind === 'reasoning' && (node.op === 'select' || node.op === 'argmin' || node.op === 'argmax') && !feedsWrite.has(node.id) && answer?.node !== node.id) {
        this.said.add(node.id);
        sentences.push(this.g.pick(IN_MIND_FORMS)(this.criterion(node)));
      }
      if (!this.isStep(node)) continue;
      const goal = this.goal(node);
      this.steps.push(node.id);
      if (node.when !== undefined) {
        const cond = this.byId.get(node.when) as ReasoningNode;
        this.said.add(cond.id);
        sentences.push(this.g.pick(CONDITION_FORMS)(this.criterion(cond), goal));
      } else {
        sentences.push(`${this.g.pick(goals === 0 ? FIRST_GOAL_LEADS : NEXT_GOAL_LEADS)} ${goal}.`);
      }
      goals += 1;
    }

    if (answer) {
      const what = this.answerPhrase(answer);
      const conditional = blueprint.nodes.some((n) => n.kind === 'tool' && n.when !== undefined);
      const writes = goals > 0;
      sentences.push(this.g.pick(conditional ? ASK_EITHER_WAY_FORMS : writes ? ASK_AFTER_FORMS : ASK_FORMS)(what));
    }

    for (const node of order) {
      if (node.kind === 'reasoning' && !this.said.has(node.id)) {
        this.said.add(node.id);
        sentences.push(this.g.pick(IN_MIND_FORMS)(this.criterion(node)));
      }
    }
    const rest = this.input.userFacts.filter((f) => !this.usedFacts.has(f.key));
    if (rest.length > 0) {
      const parts = rest.map((f) => {
        this.usedFacts.add(f.key);
        const label = statementLabel(f.key, f.value);
        const said = this.factValue(f, parameterOf(this.input.blueprint, f.key) ?? f.key, true);
        const verb = Array.isArray(f.value) && f.value.length > 1 ? 'are' : 'is';
        return said.described ? `the ${label} you mean ${verb} ${said.text}` : this.statement(f, label, said.text);
      });
      sentences.push(this.g.pick(IF_ASKED_FORMS)(joinList(parts)));
    }
    return { text: sentences.join(' '), mentions: [...this.mentions], described: [...this.described], keptIds: [...this.keptIds] };
  }

  /**
   * "your owner is "x"" — the form an agent reads back as a fact statement — unless another fact
   * goes by the same words (`owner` and `owner_2`): then a form that reads as no statement, so the
   * agent asks instead of taking the value for the other fact.
   */
  private statement(fact: UserFact, label: string, value: string): string {
    const verb = Array.isArray(fact.value) && fact.value.length > 1 ? 'are' : 'is';
    const clash = this.input.userFacts.some((g) => g !== fact && (splitWords(g.key).join(' ') === label || subjectWords(g) === label));
    return clash ? `the ${label} you use ${verb} ${value}` : `your ${label} ${verb} ${value}`;
  }

  private isStep(node: BlueprintNode): node is ToolNode {
    return node.kind === 'tool' && (node.access === 'write' || this.pure.has(node.tool));
  }

  private isReadFact(fact: string): boolean {
    return this.input.blueprint.nodes.some(
      (n) => n.kind === 'tool' && n.access === 'read' && !this.pure.has(n.tool) && Object.values(n.args).some((s) => 'user' in s && s.user === fact),
    );
  }

  /** "You are Yusuf Patel, and your zip is "94117"." — the facts the user is looked up by. */
  private identity(facts: readonly UserFact[]): string | undefined {
    if (facts.length === 0) return undefined;
    const first = facts.find((f) => /^first_?name$/i.test(baseKey(f.key)));
    const last = facts.find((f) => /^(last_?name|surname|family_?name)$/i.test(baseKey(f.key)));
    const named = first && last && typeof first.value === 'string' && typeof last.value === 'string' ? [first, last] : [];
    const others: string[] = [];
    const inMind: string[] = [];
    for (const f of facts) {
      this.usedFacts.add(f.key);
      if (named.includes(f)) continue;
      const said = this.factValue(f, parameterOf(this.input.blueprint, f.key) ?? f.key, true);
      if (said.described) inMind.push(said.text);
      else others.push(this.statement(f, statementLabel(f.key, f.value), said.text));
    }
    let text = '';
    if (named.length === 2) {
      for (const f of named) this.mentions.add(mention(f.value));
      text = this.g.pick(NAME_FORMS)(`${first?.value as string} ${last?.value as string}`, joinList(others));
    } else if (others.length > 0) {
      text = this.g.pick(IDENTITY_FORMS)(joinList(others));
    }
    for (const thing of inMind) text = `${text}${text === '' ? '' : ' '}${this.g.pick(IN_MIND_FORMS)(thing)}`;
    return text === '' ? undefined : text;
  }

  /**
   * How a fact's value is said: a held value verbatim (recorded as a mention), an internal id as
   * the description of its record (whose attribute values are mentions), or the id itself when no
   * description tells the record apart.
   */
  private factValue(fact: UserFact, parameter: string, statement: boolean): { text: string; described: boolean } {
    const value = fact.value;
    const say = (v: JsonValue): string => {
      if (v !== null && typeof v !== 'object') this.mentions.add(mention(v));
      return statement ? quoted(v) : speak(v);
    };
    const idLike = idReference(parameter) !== undefined || idReference(fact.key) !== undefined;
    if (!this.idContext || !idLike) {
      if (Array.isArray(value)) for (const v of value) if (v !== null && typeof v !== 'object') this.mentions.add(mention(v));
      else if (isJsonObject(value)) for (const v of Object.values(value)) if (v !== null && typeof v !== 'object') this.mentions.add(mention(v));
      return { text: say(value), described: false };
    }
    const elements = Array.isArray(value) ? value : [value];
    const parts: string[] = [];
    let described = false;
    for (const v of elements) {
      const cls = classifyId(parameter, v, this.idContext);
      if (cls.kind === 'held' || cls.holder === undefined) {
        parts.push(say(v));
        continue;
      }
      const d = this.describe(cls.holder, idReference(parameter)?.noun ?? '');
      if (d === undefined) {
        this.keptIds.add(fact.key);
        parts.push(say(v));
        continue;
      }
      described = true;
      parts.push(d);
    }
    if (described) this.described.add(fact.key);
    return { text: joinList(parts), described };
  }

  /** "the Backpack with color black and size large", or undefined when nothing tells it apart. */
  private describe(holder: IdHolder, noun: string): string | undefined {
    const d = describeHolder(holder, [...this.nouns, noun]);
    if (!d.unique) return undefined;
    const attrs = d.attributes.map(([field, v]) => {
      if (v !== null && typeof v !== 'object') this.mentions.add(mention(v));
      return `${field} ${speak(v)}`;
    });
    if (d.name !== undefined) this.mentions.add(d.name);
    // A record of its own collection goes by its noun and name ("the pet Lucy"); a part of a record by its name ("the Backpack").
    const kind = words(noun === '' ? singularize(holder.collection) : noun);
    const head = d.name === undefined ? kind : holder.top || attrs.length === 0 ? `${kind} ${speak(d.name)}` : speak(d.name);
    if (attrs.length === 0) return `the ${head}`;
    return `the ${head} with ${joinList(attrs)}`;
  }

  /** A goal: "cancel the pending order for the order #W0001, giving the reason "no longer needed"". */
  private goal(node: ToolNode): string {
    const { verb, object, switched } = this.verbPhrase(node);
    const targets: string[] = [];
    let values: { label: string; text: string; parameter?: string }[] = [];
    for (const [parameter, source] of Object.entries(node.args)) {
      if (switched === parameter) continue;
      const part = this.argPhrase(node, parameter, source);
      if (part === undefined) continue;
      if (part.target) targets.push(part.text);
      else values.push({ ...part, parameter });
    }
    // The parts of a postal address, said as one ("593 Cedar Avenue, Suite 826, Chicago, IL 60625, USA").
    const address = addressText(values.flatMap((v) => (v.parameter !== undefined && 'user' in (node.args[v.parameter] ?? {}) ? [[v.parameter, v.text] as [string, string]] : [])));
    if (address !== undefined) {
      const first = values.findIndex((v) => address.parts.includes(v.parameter ?? ''));
      const combined = { label: 'address', text: address.text };
      values = [...values.slice(0, first).filter((v) => !address.parts.includes(v.parameter ?? '')), combined, ...values.slice(first).filter((v) => !address.parts.includes(v.parameter ?? ''))];
    }
    let phrase = object;
    // A target that names the object itself ("the ticket with the highest priority") takes its place.
    const head = object.split(' ').pop() ?? '';
    const one = singularize(head);
    const same = targets.findIndex((t) => object !== '' && (t.startsWith(`${object} `) || t.startsWith(`whichever ${head} `) || t.startsWith(`whichever of your ${head}`) || (object === `the ${head}` && one !== head && (t.startsWith(`the ${one} `) || t.startsWith(`the ${plural(one)} `)))));
    if (same >= 0) {
      phrase = targets[same] as string;
      targets.splice(same, 1);
    }
    // An id of the record the object names joins it: "the items of the pending order #W0001".
    for (const [k, t] of targets.entries()) {
      const m = /^the (.+) (\S+)$/.exec(t);
      if (!m || phrase === '') continue;
      const at = phrase.lastIndexOf(` ${m[1] as string}`);
      const end = at + (m[1] as string).length + 1;
      if (at < 0 || (end < phrase.length && phrase[end] !== ' ' && phrase[end] !== "'")) continue;
      phrase = `${phrase.slice(0, end)} ${m[2] as string}${phrase.slice(end)}`;
      targets.splice(k, 1);
      break;
    }
    // "to research_2", "from drafts": where a move or copy goes.
    const directions = values.filter((v) => DIRECTION.test(v.label));
    const rest = values.filter((v) => !DIRECTION.test(v.label));
    if (phrase === '' && targets.length === 0 && directions.length > 0) phrase = 'it';
    const swaps = targets.filter((t) => /^(replacing it with|in exchange for|swapping in) /.test(t));
    const plain = targets.filter((t) => !swaps.includes(t));
    let text = phrase === '' ? verb : `${verb} ${phrase}`;
    if (plain.length > 0) text += `${phrase === '' ? ' ' : ' for '}${joinList(plain)}`;
    if (swaps.length > 0) text += `${plain.length > 0 || phrase !== '' ? ', ' : ' '}${joinList(swaps)}`;
    for (const d of directions) text += ` ${/^(source|from|origin)/.test(d.label) ? 'from' : 'to'} ${d.text}`;
    values.splice(0, values.length, ...rest);
    const only = values.length === 1 ? values[0] : undefined;
    if (only && /^(update|change|set|modify|edit|adjust)$/.test(verb) && only.label !== '' && object.endsWith(only.label)) {
      text += ` to ${only.text}`;
    } else if (values.length > 0) {
      text += `, ${this.g.pick(WITH_FORMS)} ${joinList(values.map((v) => (v.label === '' ? v.text : `the ${v.label} ${v.text}`)))}`;
    }
    return text.replace(/\s+/g, ' ');
  }

  /** The verb and object of a step, from the tool's name but never as the name reads. */
  private verbPhrase(node: ToolNode): { verb: string; object: string; switched?: string } {
    const all = splitWords(node.tool).map((w) => SPELLED[w] ?? w);
    const single = all.length === 1 ? PLAIN_VERBS[all[0] as string] : undefined;
    const named = single ? { verb: all[0] as string, index: 0, words: all } : nameVerb(node.tool);
    let verb: string | undefined;
    let rest: string[];
    if (named) {
      verb = named.verb;
      rest = named.words.filter((_, i) => i !== named.index).map((w) => SPELLED[w] ?? w);
    } else {
      // A verb a sentence of the description opens with ("Round a number …") when the name has none.
      const sentences = (this.tools.get(node.tool)?.description ?? '').split(/[.:\n]\s*/);
      const opener = sentences.map((x) => splitWords(x)[0]).find((x) => x !== undefined && x === all[0]);
      if (opener !== undefined) {
        verb = opener;
        rest = all.slice(1);
      } else rest = all;
    }
    // Two verbs joined by "or" (`save_or_update_contact`): "save or update the contact".
    if (verb !== undefined && rest[0] === 'or' && rest.length > 2 && verbClassOf(rest[1] as string) !== undefined) {
      verb = `${verb} or ${rest[1] as string}`;
      rest = rest.slice(2);
    }
    // A parameter that says which operation the tool makes ("method": "delete").
    let switched: string | undefined;
    for (const [parameter, source] of Object.entries(node.args)) {
      if (!('user' in source) || !SWITCH.test(parameter)) continue;
      const value = this.facts.get(source.user)?.value;
      if (typeof value === 'string' && /^[a-z]+$/.test(value) && verbClassOf(value) !== undefined) {
        verb = value;
        switched = parameter;
        this.usedFacts.add(source.user);
        this.mentions.add(value);
        rest = rest.filter((w) => verbClassOf(w) === undefined);
      }
    }
    const plain = verb !== undefined ? PLAIN_VERBS[verb] : undefined;
    if (plain) verb = plain.verb;
    // What follows "with" or "and possibly" qualifies the call (`create_users_with_list_input`).
    const cut = rest.findIndex((w, i) => i > 0 && (w === 'with' || w === 'possibly' || (w === 'and' && i < rest.length - 1 && rest[i + 1] === 'possibly')));
    if (cut > 0) rest = rest.slice(0, cut);
    let object = rest.filter((w) => !FILLER.has(w) && w !== 'and');
    // "user" says nothing next to another noun ("user settings"), but is the object of a bare "create user".
    if (object.length > 1) object = object.filter((w) => w !== 'user');
    // The caller's own profile (`get_me`, `get_my_settings`).
    object = object.map((w) => (w === 'me' ? 'your profile' : w === 'my' ? 'your' : w));
    // Logging in or out is of the user themselves (a "login user" name).
    if (verb !== undefined && /^(log|sign) (in|out)$/.test(verb) && object.length === 1 && /^(user|account|me|your profile)$/.test(object[0] as string)) object = [];
    if (object.length === 0 && plain?.object) object = [plain.object];
    const to = object.indexOf('to');
    if (verb === undefined && to > 0 && to < object.length - 1) {
      // A conversion named by its units ("liter to gallon"): convert them.
      return { verb: 'convert', object: `${object.slice(0, to).map((w, i, a) => (i === a.length - 1 ? plural(w) : w)).join(' ')} to ${object.slice(to + 1).map((w, i, a) => (i === a.length - 1 ? plural(w) : w)).join(' ')}`, ...(switched ? { switched } : {}) };
    }
    if (verb === undefined) {
      // A computation named by what it gives ("percentage"): work it out.
      // "sum values" reads as "the sum of the values"; "maximum value" stays as it is.
      const last = object[object.length - 1] ?? '';
      const noun = object.length >= 2 && /[^s]s$/.test(last) ? `${object.slice(0, -1).join(' ')} of the ${last}` : object.join(' ');
      return { verb: this.g.pick(['work out', 'calculate', 'get']), object: object.length > 0 ? `the ${noun}` : 'the result', ...(switched ? { switched } : {}) };
    }
    let phrase = this.objectPhrase(object);
    // Logging in to a system, not to a record: "log in to the ticket system".
    const cls = verbClassOf(named?.verb ?? verb);
    if ((cls === 'enable' || cls === 'disable') && object.length > 0 && !object.some((w) => /^(user|account|device|engine|light|lights|door|doors)$/.test(w))) {
      phrase = `${/^(log|sign)/.test(verb) ? (cls === 'enable' ? 'to' : 'of') : 'with'} the ${object.join(' ')} system`;
    }
    return { verb, object: phrase, ...(switched ? { switched } : {}) };
  }

  /** The write that takes a read's user fact through `$input` (what the user gave the read), or undefined. */
  private carriedFact(fact: string): ToolNode | undefined {
    for (const node of this.input.order) {
      if (node.kind !== 'tool' || node.access !== 'write') continue;
      for (const source of Object.values(node.args)) {
        if (!('from' in source) || !source.path.startsWith('$input.')) continue;
        const from = this.byId.get(source.from);
        const arg = from?.kind === 'tool' ? from.args[source.path.slice('$input.'.length)] : undefined;
        if (arg !== undefined && 'user' in arg && arg.user === fact) return node;
      }
    }
    return undefined;
  }

  /** `pending order items` → "the items of the pending order"; `issue state` → "the issue's state". */
  private objectPhrase(w: readonly string[]): string {
    if (w.length === 0) return '';
    if (/^your\b/.test(w[0] as string)) return w.join(' ');
    const entityAt = w.findIndex((x) => this.nouns.includes(singularize(x)) || this.nouns.includes(x));
    if (entityAt >= 0 && entityAt < w.length - 1) {
      const entity = w.slice(0, entityAt + 1).join(' ');
      const field = w.slice(entityAt + 1).join(' ');
      return this.g.pick([`the ${field} of the ${entity}`, `the ${entity}'s ${field}`]);
    }
    if (/^(to|from|into|in|on|onto|at|with)$/.test(w[0] as string)) return w.length > 1 ? `${w[0] as string} the ${w.slice(1).join(' ')}` : '';
    if (w.length >= 3) return `the ${w[w.length - 1] as string} of the ${w.slice(0, -1).join(' ')}`;
    return `the ${w.join(' ')}`;
  }

  /**
   * How one argument of a step is said, or undefined when the agent finds it alone: a target (the
   * record acted on: a held id, a described record, a criterion that picks it) or a value with its label.
   */
  private argPhrase(node: ToolNode, parameter: string, source: ArgSource): { text: string; target: boolean; label: string } | undefined {
    // A one-letter name (`a`, `b`) labels nothing: the value is said alone. A field inside a
    // stated list (`observations.entityName`) is labelled by the field.
    const name = itemField(parameter)?.field ?? parameter;
    const label = name.length <= 1 ? '' : parameterLabel(name);
    const isId = idReference(name) !== undefined;
    if ('user' in source) {
      const fact = this.facts.get(source.user);
      if (!fact) return undefined;
      this.usedFacts.add(source.user);
      const said = this.factValue(fact, parameter, false);
      if (said.described) return { text: said.text, target: true, label };
      if (isJsonObject(fact.value)) {
        const address = addressText(Object.entries(fact.value).map(([k, v]) => [k, speak(v)]));
        if (address !== undefined && address.parts.length === Object.keys(fact.value).length) return { text: address.text, target: false, label: 'address' };
        const fields = Object.entries(fact.value).map(([k, v]) => `the ${splitWords(k).join(' ')} set to ${speak(v)}`);
        return { text: joinList(fields), target: false, label: '' };
      }
      return isId ? { text: `the ${label} ${said.text}`, target: true, label } : { text: said.text, target: false, label };
    }
    if ('from' in source) {
      const from = this.byId.get(source.from);
      // What a write takes from what the user gave a read (the names of the entities it opened):
      // the user's own value, said as the write's target ("delete the entity Waylon Spencer").
      const carried = from?.kind === 'tool' && source.path.startsWith('$input.') ? from.args[source.path.slice('$input.'.length)] : undefined;
      const held = carried !== undefined && 'user' in carried ? this.facts.get(carried.user) : undefined;
      if (held !== undefined && carried !== undefined && 'user' in carried && this.carriedFact(carried.user) !== undefined) {
        this.usedFacts.add(carried.user);
        // A record the state can describe goes by its description, not its id.
        const said = this.factValue(held, source.path.slice('$input.'.length), false);
        if (said.described) return { text: said.text, target: true, label };
        const values = Array.isArray(held.value) ? held.value : [held.value];
        const noun = label.replace(/ (names?|ids?|titles?)$/, '');
        const text = `the ${values.length > 1 ? plural(noun) : singularize(noun)} ${joinList(values.map((v) => speak(v)))}`;
        for (const v of values) if (v !== null && typeof v !== 'object') this.mentions.add(mention(v));
        return { text, target: true, label };
      }
      if (from?.kind === 'tool' && this.pure.has(from.tool) && this.pure.has(node.tool)) {
        const k = this.steps.indexOf(from.id);
        const field = words(lastKey(source.path));
        const what = k >= 0 ? `the ${field === 'result' || field === 'value' ? 'result' : field} of the ${ordinal(k)} step` : 'the previous result';
        return { text: label === '' ? what : `${this.g.pick(['set to', 'equal to'])} ${what}`, target: false, label };
      }
      if (from?.kind !== 'reasoning') return undefined;
      const p = { ...from.params, ...(this.input.resolved.get(from.id) ?? {}) };
      // The chosen element's own criterion value is what is passed: the value itself is said.
      if (from.op === 'select' && p.field !== undefined && p.value !== undefined && lastKey(source.path) === lastKey(p.field) && idReference(lastKey(p.field)) === undefined) {
        this.said.add(from.id);
        if (p.value !== null && typeof p.value !== 'object') this.mentions.add(mention(p.value));
        return { text: speak(p.value), target: false, label };
      }
      this.said.add(from.id);
      const text = this.criterion(from);
      const noun = this.reasoningNoun(from);
      if (label === '') return { text, target: false, label };
      if (label === noun || label === `${noun}s` || label.startsWith(`${noun} `) || noun.endsWith(label)) return { text, target: true, label };
      if (isId && /^new /.test(label)) return { text: `${this.g.pick(['replacing it with', 'in exchange for', 'swapping in'])} ${text}`, target: true, label: 'new' };
      if (isId) return { text: `${text} as the ${label.replace(/s$/, '')}`, target: true, label };
      return { text: `${this.g.pick(['set to', 'taken from'])} ${text}`, target: false, label };
    }
    return undefined;
  }

  private reasoningNoun(node: ReasoningNode): string {
    let noun = cleanNoun(elementNoun(node.input.path));
    if (noun === 'item' && !/items/.test(node.input.path)) {
      const from = this.byId.get(node.input.from);
      if (from?.kind === 'tool') noun = toolNoun(from.tool);
    }
    if (noun === '' || noun === 'result') {
      const from = this.byId.get(node.input.from);
      noun = from?.kind === 'tool' ? toolNoun(from.tool) : 'one';
    }
    return noun;
  }

  /** A criterion as a preference: "the cheapest variant", "whichever of your orders is pending". */
  private criterion(node: ReasoningNode): string {
    const p = { ...node.params, ...(this.input.resolved.get(node.id) ?? {}) };
    const noun = this.reasoningNoun(node);
    const g = this.g;
    const value = (v: JsonValue | undefined): string => {
      if (v !== undefined && v !== null && typeof v !== 'object') this.mentions.add(mention(v));
      return speak(v);
    };
    switch (node.op) {
      case 'select': {
        const field = p.field === undefined || p.field === '$' ? undefined : p.field;
        // A criterion on an id the user would not know: the record it picks, described.
        const idField = field === undefined ? elementIsId(node.input.path) : idReference(lastKey(field)) !== undefined;
        if (idField && this.idContext && p.value !== undefined && p.value !== null && typeof p.value !== 'object') {
          const parameter = field === undefined ? `${noun.replace(/ /g, '_')}_id` : lastKey(field);
          const cls = classifyId(parameter, p.value, this.idContext);
          const view = this.input.chosen?.get(node.id);
          // The element chosen (a room whose booking is the one named), else the record the id names.
          const viewHolder = field !== undefined && isJsonObject(view) ? holderOfObject(view, this.idContext.state, this.idContext.collections) : undefined;
          const holder = cls.kind === 'internal' ? (viewHolder ?? cls.holder) : undefined;
          const d = holder ? this.describe(holder, noun.replace(/ /g, '_')) : undefined;
          if (d !== undefined) return d;
          if (cls.kind === 'held') return `your ${noun} ${value(p.value)}`;
        }
        if (field === undefined) return `the ${noun} ${value(p.value)}`;
        const last = lastKey(field);
        if (/^(name|title|full_name|display_name|label)$/.test(last) && typeof p.value === 'string') {
          return g.pick([`the ${noun} called ${value(p.value)}`, `the ${noun} named ${value(p.value)}`, `the ${value(p.value)} ${noun}`]);
        }
        // A record's own status (not an address's "state"): "the order that is pending".
        if (STATUS_FIELD.test(last) && !field.includes('.') && typeof p.value === 'string' && /^[A-Za-z][A-Za-z _-]{0,20}$/.test(p.value)) return g.pick(STATUS_FORMS)(noun, value(p.value));
        if (/^(options|attributes)\./.test(field) && typeof p.value === 'string' && /^[A-Za-z-]+$/.test(p.value)) {
          return g.pick([`the ${value(p.value)} ${noun}`, `the ${noun} in ${value(p.value)}`, `the ${noun} with ${fieldWords(field)} ${value(p.value)}`]);
        }
        return g.pick(SELECT_FORMS)(noun, fieldWords(field), value(p.value));
      }
      case 'argmin':
      case 'argmax': {
        const key = p.key ?? 'value';
        const last = lastKey(key);
        const filtered = p.field !== undefined && p.value !== undefined ? { field: p.field, value: p.value } : undefined;
        const base = filtered && /^(options|attributes)\./.test(filtered.field) && typeof filtered.value === 'string' && /^[A-Za-z-]+$/.test(filtered.value) ? `${value(filtered.value)} ${noun}` : noun;
        let text: string;
        if (PRICE_KEY.test(last)) text = g.pick(node.op === 'argmin' ? CHEAPEST_FORMS : DEAREST_FORMS)(base);
        else if (DATE_KEY.test(last)) text = g.pick(node.op === 'argmin' ? EARLIEST_FORMS : LATEST_FORMS)(base);
        else text = g.pick(EXTREME_FORMS)(base, node.op === 'argmin' ? 'lowest' : 'highest', fieldWords(key));
        if (filtered && base === noun) text += ` among those whose ${fieldWords(filtered.field)} is ${value(filtered.value)}`;
        return text;
      }
      case 'count':
        return p.field === undefined ? g.pick(COUNT_ALL_FORMS)(noun) : g.pick(COUNT_FORMS)(noun, fieldWords(p.field), value(p.value));
      case 'sum':
        return g.pick(SUM_FORMS)(noun, fieldWords(p.key ?? 'value'));
      case 'compare': {
        const op = p.operator;
        const relation = op === '<' || op === '<=' ? 'below' : op === '>' || op === '>=' ? 'above' : op === '!=' ? 'not' : 'equal to';
        return g.pick(COMPARE_FORMS)(this.valuePhrase(node.input), relation, value(p.operand));
      }
      case 'arithmetic':
        return arithmeticPhrase(this.valuePhrase(node.input), p, value);
      default:
        return `the ${noun}`;
    }
  }

  /** What a source path denotes: "the total price of the items", "the total of the order". */
  private valuePhrase(source: { from: string; path: string }): string {
    const from = this.byId.get(source.from);
    if (from?.kind === 'reasoning') {
      this.said.add(from.id);
      const base = this.criterion(from);
      return source.path === '$' ? base : `the ${words(lastKey(source.path))} of ${base}`;
    }
    if (from?.kind === 'tool' && this.pure.has(from.tool)) {
      const k = this.steps.indexOf(from.id);
      return k >= 0 ? `the result of the ${ordinal(k)} step` : 'the result';
    }
    const noun = from?.kind === 'tool' ? toolNoun(from.tool) : 'result';
    return source.path === '$' ? `the ${noun}` : `the ${words(lastKey(source.path))} of the ${noun}`;
  }

  /** What the user asks to be told: "the status of the booking", never its value. */
  private answerPhrase(answer: IntentAnswer): string {
    const node = this.byId.get(answer.node);
    if (node?.kind === 'reasoning') {
      this.said.add(node.id);
      return this.criterion(node);
    }
    const chooser = node?.kind === 'tool' ? Object.values(node.args).map((s) => ('from' in s ? this.byId.get(s.from) : undefined)).find((n) => n?.kind === 'reasoning') : undefined;
    const field = answer.path === '$' ? 'result' : fieldWords(answer.path);
    if (node?.kind === 'tool' && this.pure.has(node.tool)) {
      const k = this.steps.indexOf(node.id);
      if (field === 'me') return k >= 0 ? `your profile as the ${ordinal(k)} step shows it` : 'your profile';
      return k >= 0 ? `the ${field === 'value' ? 'result' : field} of the ${ordinal(k)} step` : `the ${field}`;
    }
    if (chooser?.kind === 'reasoning') {
      this.said.add(chooser.id);
      return `the ${field} of ${this.criterion(chooser)}`;
    }
    if (node?.kind !== 'tool') return `the ${field}`;
    const noun = toolNoun(node.tool);
    // A lookup that returns one value ("find user id by …" → "the user id").
    if (answer.path === '$') return splitWords(node.tool).includes('id') ? `the ${noun} id` : `what the agent finds for the ${noun}`;
    return `the ${field} of the ${noun}`;
  }
}

const ADDRESS_PARTS: readonly Meaning[] = ['street', 'address2', 'city', 'state', 'zip', 'country'];

/**
 * The fields of a postal address as one address, in the order one is written (street, line two,
 * city, state and zip, country), with the fields it used; undefined unless there are three or
 * more, a street or a city among them.
 */
function addressText(fields: readonly [string, string][]): { text: string; parts: string[] } | undefined {
  const byMeaning = new Map<Meaning, [string, string]>();
  for (const f of fields) {
    const m = meaningOf(f[0]);
    if (ADDRESS_PARTS.includes(m) && !byMeaning.has(m)) byMeaning.set(m, f);
  }
  if (byMeaning.size < 3 || !(byMeaning.has('street') || byMeaning.has('city'))) return undefined;
  const say = (m: Meaning): string | undefined => byMeaning.get(m)?.[1].replace(/^"(.*)"$/, '$1');
  const stateZip = [say('state'), say('zip')].filter((x) => x !== undefined).join(' ');
  const text = [say('street'), say('address2'), say('city'), stateZip === '' ? undefined : stateZip, say('country')].filter((x) => x !== undefined && x !== '').join(', ');
  return { text, parts: [...byMeaning.values()].map(([k]) => k) };
}

/** The parameter a fact feeds first (its name tells whether the value is an id). */
function parameterOf(blueprint: Blueprint, fact: string): string | undefined {
  for (const n of blueprint.nodes) {
    if (n.kind !== 'tool') continue;
    for (const [parameter, s] of Object.entries(n.args)) if ('user' in s && s.user === fact) return parameter;
  }
  return undefined;
}

function baseKey(key: string): string {
  return key.replace(/_\d+$/, '');
}

/** `zip_2` → `zip`, `phoneNumber` → `phone number`, `petId` → `pet id`: a fact's subject as the user states it. */
function statementLabel(key: string, value?: JsonValue): string {
  const w = splitWords(baseKey(key)).map((x) => SPELLED[x] ?? x);
  // One value of a list-valued fact: "your name is …", not "your names is …".
  if (Array.isArray(value) && value.length === 1 && w.length > 0) w[w.length - 1] = singularize(w[w.length - 1] as string);
  return w.join(' ');
}

/** `order_id` → `order`, `item_ids` → `items`, `payment_method_id` → `payment method`, `photoUrls` → `photo urls`. */
function parameterLabel(parameter: string): string {
  const w = splitWords(parameter.replace(/_\d+$/, ''));
  const last = w[w.length - 1];
  if (w.length > 1 && last === 'ids') return [...w.slice(0, -2), `${w[w.length - 2] as string}s`].join(' ');
  if (w.length > 1 && (last === 'id' || last === 'uuid' || last === 'key')) return w.slice(0, -1).join(' ');
  return w.map((x) => SPELLED[x] ?? x).join(' ');
}

/** The noun of a tool's output (`fetch_invoice_details` → `invoice`, `list_cabins_by_kind` → `cabin`). */
function toolNoun(tool: string): string {
  const all = splitWords(tool);
  const named = nameVerb(tool);
  const rest = named ? named.words.filter((_, i) => i !== named.index) : all;
  if (named && verbClassOf(named.verb) !== undefined && ['create', 'update', 'transition', 'delete', 'enable', 'disable', 'toggle'].includes(verbClassOf(named.verb) as string) && rest.length > 0) {
    return cleanNoun(singularize(rest[0] as string));
  }
  const cut = rest.indexOf('by');
  const before = cut >= 0 ? rest.slice(0, cut) : rest;
  let kept = before.filter((x) => !FILLER.has(x) && x !== 'id');
  if (kept.length > 1) kept = kept.filter((x) => x !== 'user');
  if (kept.length === 0) return 'result';
  return cleanNoun([...kept.slice(0, -1), singularize(kept[kept.length - 1] as string)].join(' ')) || 'result';
}

/** Drops words that name a container rather than a thing: `user list` → `user`, `order ids` → `order`. */
function cleanNoun(noun: string): string {
  const w = noun.split(' ').filter((x) => x !== '');
  while (w.length > 1 && /^(list|lists|ids|id|map|set|array|collection|data|info|details|entries|records)$/.test(w[w.length - 1] as string)) w.pop();
  return w.join(' ');
}

function elementIsId(path: string): boolean {
  const keys = path.replace(/\[\]$|\.\*$/, '').split(/[.[\]]+/).filter((k) => k !== '' && k !== '*' && k !== '$');
  const last = keys[keys.length - 1];
  return last !== undefined && idReference(last) !== undefined && idReference(last)?.opaque === true;
}

function arithmeticPhrase(base: string, p: ReasoningParams, value: (v: JsonValue | undefined) => string): string {
  switch (p.operator) {
    case '*':
      return p.operand === 2 ? `twice ${base}` : p.operand === 3 ? `three times ${base}` : `${base} times ${value(p.operand)}`;
    case '/':
      return p.operand === 2 ? `half of ${base}` : `${base} divided by ${value(p.operand)}`;
    case '+':
      return `${base} plus ${value(p.operand)}`;
    case '-':
      return `${base} minus ${value(p.operand)}`;
    default:
      return base;
  }
}

/** `address.zip` → `zip`, `options.color` → `color`, `check_in_date` → `check in date`. */
function fieldWords(path: string): string {
  return splitWords(lastKey(path)).map((w) => SPELLED[w] ?? w).join(' ');
}

function lastKey(path: string): string {
  const keys = path.split(/[.[\]]+/).filter((k) => k !== '' && k !== '*' && k !== '$');
  return keys[keys.length - 1] ?? 'value';
}

// The words a fact is named by: its description without a leading "your"/"my"/"the", else its key's words.
function subjectWords(fact: { key: string; description?: string }): string {
  const text = fact.description ?? splitWords(fact.key).join(' ');
  return text
    .trim()
    .replace(/^(your|my|the)\s+/i, '')
    .toLowerCase();
}
