// Whether a tool reads or writes, decided once for every package (synthesizer, dependency graph,
// task compiler, reference policy): declared hints first, then the HTTP method's default, then
// the verb of the tool's name, then the verb that opens its description.
import { splitWords } from './naming.js';
import type { ToolSpec } from './tool.js';

/** The kind of action a verb announces. */
export type VerbClass =
  | 'lookup'
  | 'find'
  | 'list'
  | 'create'
  | 'update'
  | 'transition'
  | 'enable'
  | 'disable'
  | 'toggle'
  | 'delete'
  | 'compute'
  | 'noop';

/** Whether each verb class reads or writes. */
export const VERB_CLASS_ACCESS: Readonly<Record<VerbClass, 'read' | 'write'>> = {
  lookup: 'read',
  find: 'read',
  list: 'read',
  compute: 'read',
  noop: 'read',
  create: 'write',
  update: 'write',
  transition: 'write',
  enable: 'write',
  disable: 'write',
  toggle: 'write',
  delete: 'write',
};

const VERB_CLASSES = new Map<string, VerbClass>();
function verbs(cls: VerbClass, list: string): void {
  for (const v of list.trim().split(/\s+/)) VERB_CLASSES.set(v, cls);
}
verbs('lookup', 'get fetch retrieve read show view describe lookup check inspect display load see obtain query verify validate peek track download export cat pwd tail head');
verbs('find', 'find locate identify');
verbs('list', 'list search browse filter recommend suggest explore enumerate count ls grep');
verbs(
  'create',
  'create add book register place insert open make submit schedule post send generate reserve buy purchase apply start initiate log record enroll subscribe write compose upload comment reply tweet retweet mention follow copy duplicate clone mkdir touch cp',
);
verbs(
  'update',
  'update modify change set edit rename assign adjust replace move upgrade downgrade patch amend reschedule correct reset save mark rate fill refuel press release configure increase decrease append prepend mv cd',
);
verbs(
  'transition',
  'cancel return exchange close approve reject confirm complete pay suspend resume archive restore refund ship deliver accept decline finish end block unblock lock unlock reopen dispatch checkin checkout redeem void expire renew terminate reactivate freeze unfreeze resolve escalate grant revoke transfer deposit withdraw fund charge sell',
);
verbs('enable', 'enable activate turnon switchon login signin connect authenticate engage');
verbs('disable', 'disable deactivate turnoff switchoff logout signout disconnect');
verbs('toggle', 'toggle flip');
verbs('delete', 'delete remove drop destroy erase clear unsubscribe purge unfollow dismiss discard rm rmdir');
verbs('compute', 'calculate compute evaluate convert estimate compare analyze summarize predict forecast translate wc du diff sort');
verbs('noop', 'think');

/** Two-word verbs read as one (`turn_on_lights` → `turnon`). */
export const PHRASAL_VERBS: Readonly<Record<string, string>> = {
  'turn on': 'turnon',
  'turn off': 'turnoff',
  'switch on': 'switchon',
  'switch off': 'switchoff',
  'log in': 'login',
  'log out': 'logout',
  'sign in': 'signin',
  'sign out': 'signout',
  'check in': 'checkin',
  'check out': 'checkout',
  'look up': 'lookup',
};

/** The class of a verb (`cancel` → `transition`); undefined for words that are no known verb. */
export function verbClassOf(word: string): VerbClass | undefined {
  return VERB_CLASSES.get(word);
}

/** Words with phrasal verbs joined (`['turn', 'on', 'lights']` → `['turnon', 'lights']`). */
export function joinPhrasalVerbs(words: readonly string[]): string[] {
  let w = [...words];
  const joined = ` ${w.join(' ')} `;
  for (const [phrase, single] of Object.entries(PHRASAL_VERBS)) {
    if (joined.includes(` ${phrase} `)) w = ` ${w.join(' ')} `.replace(` ${phrase} `, ` ${single} `).trim().split(' ');
  }
  return w;
}

/** The verb of a name: the first of its words that is a known verb (`delivery_store_search` → `search`). */
export interface NameVerb {
  verb: string;
  verbClass: VerbClass;
  /** Its index in the words (phrasal verbs joined). */
  index: number;
  /** The name's words, phrasal verbs joined. */
  words: string[];
}

/** The verb of a tool name, or undefined when none of its words is a known verb. */
export function nameVerb(name: string): NameVerb | undefined {
  const w = joinPhrasalVerbs(splitWords(name));
  const index = w.findIndex((x) => VERB_CLASSES.has(x));
  if (index < 0) return undefined;
  const verb = w[index] as string;
  return { verb, verbClass: VERB_CLASSES.get(verb) as VerbClass, index, words: w };
}

/** The first write verb after an `and`/`then`/`or` that follows the name's first verb. */
function joinedWriteVerb(named: NameVerb): { verb: string; verbClass: VerbClass } | undefined {
  const rest = named.words.slice(named.index + 1);
  const join = rest.findIndex((x) => x === 'and' || x === 'then' || x === 'or');
  if (join < 0) return undefined;
  const verb = rest.slice(join + 1).find((x) => VERB_CLASSES.has(x));
  if (verb === undefined) return undefined;
  const verbClass = VERB_CLASSES.get(verb) as VerbClass;
  return VERB_CLASS_ACCESS[verbClass] === 'write' ? { verb, verbClass } : undefined;
}

/** Where a {@link ToolAccessResult} came from. */
export type ToolAccessSource = 'hint' | 'method' | 'name' | 'description' | 'none';

/** Whether a tool reads or writes, and why. */
export interface ToolAccessResult {
  /** `unknown` when no signal says; callers choose their own default. */
  access: 'read' | 'write' | 'unknown';
  /** The signal that decided. */
  source: ToolAccessSource;
  /** Set when a hint or the verb says whether the tool destroys state (`destructiveHint`, a `delete` verb). */
  destructive?: boolean;
  /** The verb that decided (source `name` or `description`). */
  verb?: string;
  verbClass?: VerbClass;
}

// A hand-over to a person (`transfer_to_human_agents`) changes nothing in the environment,
// although `transfer` is otherwise a write (money moves).
const HAND_OFF_WORD = /transfer|escalat|hand\s*(over|off)/;
const PERSON_WORD = /\bhuman\b|\brepresentative\b|\bperson\b|\bsupervisor\b/;

/** True for a tool that hands the conversation over to a person (name or description say so). */
export function isHandOff(tool: Pick<ToolSpec, 'name' | 'description'>): boolean {
  const text = `${splitWords(tool.name).join(' ')} ${tool.description.toLowerCase()}`;
  return HAND_OFF_WORD.test(text) && PERSON_WORD.test(text);
}

// Verbs that, opening a description, say what the tool answers rather than what it does.
const DESCRIPTION_READ = new Set(['return', 'give', 'provide', 'output', 'print', 'report', 'answer', 'tell']);
const DESCRIPTION_WORDS = 12;
const DESCRIPTION_SENTENCES = 4;

/**
 * The verb that opens a description (`Creates a pet` → `create`), conjugations removed: the
 * first of its first sentences that has a known verb among its first words (a preamble such as
 * "This tool belongs to the billing service." has none and is skipped).
 */
function descriptionVerb(description: string): { verb: string; verbClass: VerbClass } | undefined {
  const sentences = description.split(/(?<=[.!?:])\s+|\n+/).slice(0, DESCRIPTION_SENTENCES);
  for (const sentence of sentences) {
    const ws = joinPhrasalVerbs(sentence.toLowerCase().split(/[^a-z]+/).filter((x) => x !== '')).slice(0, DESCRIPTION_WORDS);
    for (const word of ws) {
      for (const form of verbForms(word)) {
        if (DESCRIPTION_READ.has(form)) return { verb: form, verbClass: 'lookup' };
        const cls = VERB_CLASSES.get(form);
        if (cls) return { verb: form, verbClass: cls };
      }
    }
  }
  return undefined;
}

/** `creates` → create, `lists` → list, `searches` → search, `copies` → copy. */
function verbForms(word: string): string[] {
  const forms = [word];
  if (/ies$/.test(word)) forms.push(`${word.slice(0, -3)}y`);
  if (/(s|x|z|ch|sh)es$/.test(word)) forms.push(word.slice(0, -2));
  if (/[^s]s$/.test(word)) forms.push(word.slice(0, -1));
  return forms;
}

function fromHints(hints: ToolSpec['hints']): ToolAccessResult | undefined {
  if (!hints) return undefined;
  const source: ToolAccessSource = hints.httpMethod !== undefined ? 'method' : 'hint';
  const destructive = hints.destructive === undefined ? {} : { destructive: hints.destructive };
  // MCP: destructiveHint is meaningful only when readOnlyHint is false, so readOnly wins.
  if (hints.readOnly === true) return { access: 'read', source, destructive: false };
  if (hints.readOnly === false || hints.destructive === true) return { access: 'write', source, ...destructive };
  if (hints.toolType === 'write') return { access: 'write', source, ...destructive };
  if (hints.toolType !== undefined) return { access: 'read', source, destructive: false };
  return undefined;
}

/**
 * Whether a tool reads or writes. The first signal that speaks decides:
 * 1. declared hints (`ToolHints`: MCP annotations, tau2/VitaBench tool types, OpenAPI GET/PUT/PATCH/DELETE);
 * 2. a hand-over to a person (read: nothing in the environment changes);
 * 3. the verb of the name (the first word that is a known verb: `get_order` reads, `cancel_order` writes);
 * 4. the verb that opens the description (`Creates a new pet …`);
 * 5. an OpenAPI POST with neither (write: POST is not a safe method).
 * Otherwise `unknown`.
 *
 * @example
 * toolAccess({ name: 'delete_entities', description: '', hints: { readOnly: false, destructive: true } })
 * // { access: 'write', source: 'hint', destructive: true }
 */
export function toolAccess(tool: Pick<ToolSpec, 'name' | 'description' | 'hints'>): ToolAccessResult {
  const hinted = fromHints(tool.hints);
  if (hinted) return hinted;
  if (isHandOff(tool)) return { access: 'read', source: 'name', destructive: false, verbClass: 'noop' };
  const named = nameVerb(tool.name);
  if (named) {
    const access = VERB_CLASS_ACCESS[named.verbClass];
    // `check_eligibility_and_possibly_initiate_return`: a read joined to a write may write.
    const second = access === 'read' ? joinedWriteVerb(named) : undefined;
    if (second) return { access: 'write', source: 'name', destructive: second.verbClass === 'delete', verb: second.verb, verbClass: second.verbClass };
    return { access, source: 'name', destructive: named.verbClass === 'delete', verb: named.verb, verbClass: named.verbClass };
  }
  const described = descriptionVerb(tool.description);
  if (described) {
    const access = VERB_CLASS_ACCESS[described.verbClass];
    return { access, source: 'description', destructive: described.verbClass === 'delete', verb: described.verb, verbClass: described.verbClass };
  }
  if (tool.hints?.httpMethod === 'post') return { access: 'write', source: 'method' };
  return { access: 'unknown', source: 'none' };
}
