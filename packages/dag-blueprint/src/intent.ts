import type { JsonValue, UserFact } from '@autoforge/core';
import { splitWords, VERB_CLASS_ACCESS, verbClassOf } from '@autoforge/core';
import type { ArgSource, Blueprint, BlueprintNode, ReasoningNode, ReasoningParams, ToolNode } from './blueprint.js';
import { elementNoun, singular, words } from './words.js';

/** The value a task reports: `readPath(value of node, path)`. */
export interface IntentAnswer {
  node: string;
  path: string;
  value: JsonValue;
}

/** What {@link writeIntent} needs: the blueprint and what compiling it chose. */
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
}

/** A value as a user states it: strings in double quotes, everything else as JSON. */
export function mention(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const quote = (value: JsonValue | undefined): string => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value ?? null));

// Verbs come from core's one table, the one that decides read vs write everywhere.
const isVerb = (word: string): boolean => verbClassOf(word) !== undefined;
const isAccessVerb = (word: string, access: 'read' | 'write'): boolean => {
  const cls = verbClassOf(word);
  return cls !== undefined && VERB_CLASS_ACCESS[cls] === access;
};

/** `cancel_open_booking` → `{ verb: 'cancel', object: 'pending order' }`. */
function verbPhrase(tool: string): { verb: string; object: string } {
  const w = splitWords(tool);
  // The first word that is a verb, as core's toolAccess reads names (`memory_add` adds).
  const at = Math.max(0, w.findIndex(isVerb));
  const verb = w[at] ?? tool;
  const rest = w.filter((_, i) => i !== at);
  if (isVerb(verb)) {
    // "modify user address" reads as "modify your address".
    if (rest[0] === 'user' && rest.length > 1) rest.shift();
    return { verb, object: rest.join(' ') };
  }
  return { verb: 'use', object: w.join(' ') };
}

/**
 * The noun of a tool's output: `get_article_details` → `product`, `list_all_item_kinds` →
 * `product type`; a write returns the record it changed: `update_booking_guests` → `reservation`.
 */
function toolNoun(tool: string): string {
  const all = splitWords(tool);
  if (isAccessVerb(all[0] ?? '', 'write') && all.length > 1) return singular(all[1] as string);
  const w = all.filter((x) => !isAccessVerb(x, 'read') && !['all', 'details', 'detail', 'info', 'information', 'by'].includes(x));
  const cut = w.indexOf('by');
  const kept = (cut >= 0 ? w.slice(0, cut) : w).filter((x) => x !== 'id');
  return singular(kept.join('_') || 'result').replace(/_/g, ' ');
}

/** `order_id` → `order`, `item_ids` → `items`, `payment_method_id` → `payment method`. */
function parameterLabel(parameter: string): string {
  return words(parameter.replace(/_ids$/, 's').replace(/_id$/, ''));
}

/**
 * The offline intent: the user's instructions in the second person, as benchmark task authors write them —
 * who they are (the facts they identify themselves with), what they want done (each write, with
 * the criterion of every reasoning step that chooses its arguments and the values they state),
 * the condition of a conditional write, and what they want to be told. Every user fact's value and
 * every criterion's value appears verbatim; nothing the agent can look up (an id from a tool) is stated.
 */
export function writeIntent(input: IntentInput): string {
  const { blueprint, order, userFacts, resolved, answer } = input;
  const pure = input.pure ?? new Set<string>();
  const isStep = (node: BlueprintNode): node is ToolNode => node.kind === 'tool' && (node.access === 'write' || pure.has(node.tool));
  const byId = new Map(blueprint.nodes.map((n) => [n.id, n]));
  const factValue = new Map(userFacts.map((f) => [f.key, f.value]));
  const described = new Set<string>();
  const usedFacts = new Set<string>();
  const sentences: string[] = [];

  const reasoningNoun = (node: ReasoningNode): string => {
    const noun = elementNoun(node.input.path);
    if (noun !== 'item' || /items/.test(node.input.path)) return noun;
    const from = byId.get(node.input.from);
    return from?.kind === 'tool' ? toolNoun(from.tool) : noun;
  };

  /** "the order whose status is "pending"", "the variant with the lowest price", "how many orders …". */
  const phrase = (node: ReasoningNode): string => {
    const p = { ...node.params, ...(resolved.get(node.id) ?? {}) };
    const noun = reasoningNoun(node);
    switch (node.op) {
      case 'select':
        return p.field === undefined || p.field === '$' ? `the ${noun} ${quote(p.value)}` : `the ${noun} whose ${fieldWords(p.field)} is ${quote(p.value)}`;
      case 'argmin':
      case 'argmax':
        return `the ${noun} with the ${node.op === 'argmin' ? 'lowest' : 'highest'} ${fieldWords(p.key ?? 'value')}`;
      case 'count':
        return p.field === undefined ? `how many ${noun}s there are` : `how many ${noun}s have ${fieldWords(p.field)} ${quote(p.value)}`;
      case 'sum':
        return `the total ${fieldWords(p.key ?? 'value')} of the ${noun}s`;
      case 'compare':
        return `${valuePhrase(node.input)} is ${p.operator === '<' || p.operator === '<=' ? 'below' : p.operator === '>' || p.operator === '>=' ? 'above' : p.operator === '!=' ? 'not' : ''} ${quote(p.operand)}`.replace(/\s+/g, ' ');
      case 'arithmetic':
        return arithmeticPhrase(valuePhrase(node.input), p);
      default:
        return `the ${noun}`;
    }
  };

  /** What a source path denotes: "the total price of the items", "the total of the order". */
  const valuePhrase = (source: { from: string; path: string }): string => {
    const from = byId.get(source.from);
    if (from?.kind === 'reasoning') {
      described.add(from.id);
      const base = phrase(from);
      return source.path === '$' ? base : `the ${words(lastKey(source.path))} of ${base}`;
    }
    const noun = from?.kind === 'tool' ? toolNoun(from.tool) : 'result';
    return source.path === '$' ? `the ${noun}` : `the ${words(lastKey(source.path))} of the ${noun}`;
  };

  /** How an argument of a write is described, or undefined when the agent finds it alone. */
  const argPhrase = (parameter: string, source: ArgSource, to = ''): string | undefined => {
    if ('user' in source) {
      usedFacts.add(source.user);
      return `${parameterLabel(parameter)} ${quote(factValue.get(source.user))}`;
    }
    if ('from' in source) {
      const from = byId.get(source.from);
      // A computation goes on from the one before: the user says which result it takes.
      if (from?.kind === 'tool' && pure.has(from.tool) && pure.has(to)) return `${parameterLabel(parameter)}: the ${words(lastKey(source.path))} of the ${words(from.tool)}`;
      if (from?.kind !== 'reasoning') return undefined;
      described.add(from.id);
      const label = parameterLabel(parameter);
      const noun = reasoningNoun(from);
      const text = phrase(from);
      return label === noun || label === `${noun}s` ? text : `${label}: ${text}`;
    }
    return undefined;
  };

  // Who the user is: the facts read tools take (email, name, zip).
  const identity = userFacts.filter((f) => isReadFact(blueprint, f.key, pure));
  if (identity.length > 0) {
    for (const f of identity) usedFacts.add(f.key);
    const parts = identity.map((f) => `${possessive(f.description)} is ${quote(f.value)}`);
    sentences.push(`${capitalize(joinList(parts))}.`);
  }

  // Reasoning steps that only feed reads: the context the user has in mind.
  const feedsWrite = new Set<string>();
  for (const node of order) {
    if (node.kind !== 'tool' || node.access !== 'write') continue;
    for (const s of Object.values(node.args)) if ('from' in s) feedsWrite.add(s.from);
  }

  for (const node of order) {
    if (node.kind === 'reasoning' && (node.op === 'select' || node.op === 'argmin' || node.op === 'argmax') && !feedsWrite.has(node.id)) {
      if (answer?.node === node.id) continue;
      described.add(node.id);
      sentences.push(`You have in mind ${phrase(node)}.`);
    }
    if (!isStep(node)) continue;
    const { verb, object } = verbPhrase(node.tool);
    const parts = Object.entries(node.args)
      .map(([p, s]) => argPhrase(p, s, node.tool))
      .filter((x): x is string => x !== undefined);
    const goal = `you want to ${verb} ${object === '' ? 'it' : `the ${object}`}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`;
    if (node.when !== undefined) {
      const cond = byId.get(node.when) as ReasoningNode;
      described.add(cond.id);
      sentences.push(`Only if ${phrase(cond)}, ${goal}; otherwise you want nothing changed.`);
    } else {
      sentences.push(`${capitalize(goal)}.`);
    }
  }

  if (answer) {
    const node = byId.get(answer.node);
    let what: string;
    if (node?.kind === 'reasoning') {
      described.add(node.id);
      what = phrase(node);
    } else {
      // A value of a tool output: name the reasoning step that chose the record, if any.
      const chooser = node?.kind === 'tool' ? Object.values(node.args).map((s) => ('from' in s ? byId.get(s.from) : undefined)).find((n) => n?.kind === 'reasoning') : undefined;
      const field = answer.path === '$' ? 'result' : words(lastKey(answer.path));
      const of = chooser?.kind === 'reasoning' ? phrase(chooser) : node?.kind === 'tool' ? `the ${toolNoun(node.tool)}` : 'it';
      if (chooser?.kind === 'reasoning') described.add(chooser.id);
      what = `the ${field} of ${of}`;
    }
    const conditional = blueprint.nodes.some((n) => n.kind === 'tool' && n.when !== undefined);
    const writes = blueprint.nodes.some((n) => n.kind === 'tool' && n.access === 'write');
    sentences.push(`${conditional ? 'Either way, you want to be told' : writes ? 'You also want to know' : 'You want to know'} ${what}.`);
  }

  // Anything not said yet: remaining criteria and facts.
  for (const node of order) {
    if (node.kind === 'reasoning' && !described.has(node.id)) sentences.push(`You have in mind ${phrase(node)}.`);
  }
  const rest = userFacts.filter((f) => !usedFacts.has(f.key));
  if (rest.length > 0) sentences.push(`If asked, ${joinList(rest.map((f) => `${possessive(f.description)} is ${quote(f.value)}`))}.`);
  return sentences.join(' ');
}

/** The values an intent must state: every user fact's value and every criterion's value. */
export function intentMentions(userFacts: readonly UserFact[], resolved: ReadonlyMap<string, ReasoningParams>): string[] {
  const out = new Set<string>();
  for (const f of userFacts) if (f.value !== null && typeof f.value !== 'object') out.add(mention(f.value));
  for (const p of resolved.values()) {
    if (p.value !== undefined && p.value !== null && typeof p.value !== 'object') out.add(mention(p.value));
    if (p.operand !== undefined && p.operand !== null && typeof p.operand !== 'object') out.add(mention(p.operand));
  }
  return [...out];
}

function isReadFact(blueprint: Blueprint, fact: string, pure: ReadonlySet<string>): boolean {
  return blueprint.nodes.some((n) => n.kind === 'tool' && n.access === 'read' && !pure.has(n.tool) && Object.values(n.args).some((s) => 'user' in s && s.user === fact));
}

function arithmeticPhrase(base: string, p: ReasoningParams): string {
  const x = quote(p.operand);
  switch (p.operator) {
    case '*':
      return p.operand === 2 ? `twice ${base}` : p.operand === 3 ? `three times ${base}` : `${base} times ${x}`;
    case '/':
      return p.operand === 2 ? `half of ${base}` : `${base} divided by ${x}`;
    case '+':
      return `${base} plus ${x}`;
    case '-':
      return `${base} minus ${x}`;
    default:
      return base;
  }
}

/** `address.zip` → `zip`, `options.color` → `color option`, `price` → `price`. */
function fieldWords(path: string): string {
  const keys = path.split('.');
  const last = keys[keys.length - 1] ?? path;
  const parent = keys[keys.length - 2];
  return parent === 'options' || parent === 'attributes' ? `${words(last)} ${words(singular(parent))}` : words(last);
}

function lastKey(path: string): string {
  const keys = path.split(/[.[\]]+/).filter((k) => k !== '' && k !== '*' && k !== '$');
  return keys[keys.length - 1] ?? 'value';
}

/** "your email" → "your email"; "the zip for modify user address" → "the zip for modify user address". */
function possessive(description: string): string {
  return /^(your|the|my)\s/i.test(description) ? description.replace(/^my\s/i, 'your ') : `your ${description}`;
}

function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]?.toUpperCase() + text.slice(1);
}

function joinList(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
