import type { JsonSchemaObject, ToolSpec, VerbClass } from '@autoforge/core';
import { joinPhrasalVerbs, toolAccess, verbClassOf } from '@autoforge/core';
import { examplesFromText } from './id-format.js';
import type { IdReference } from './naming.js';
import { idReference, singularize, STOP_WORDS, words } from './naming.js';
import { inlineRefs, nonNull } from './schema-utils.js';

/** The kind of action a tool name's verb announces (core's one verb table). */
export type { VerbClass };

/** A parameter of a tool as the synthesizer reads it. */
export interface ParamInfo {
  name: string;
  /** The parameter schema with local `$ref`s inlined and optional wrappers removed. */
  schema: JsonSchemaObject;
  required: boolean;
  /** Set when the name refers to records (`order_id`, `item_ids`). */
  ref?: IdReference;
  /** Example values quoted in the description (`such as '#W0000000'`). */
  examples: string[];
  description: string;
}

/** What a tool's name, description, parameters and hints say, before the state is considered. */
export interface ToolAnalysis {
  tool: ToolSpec;
  words: string[];
  /** The action verb (phrasal verbs joined: `turnon`). */
  verb?: string;
  verbClass?: VerbClass;
  /** The words naming what the tool acts on (verb, `by …` clause and filler removed). */
  nounWords: string[];
  /** Words after `by` (`locate_user_id_by_name_zip` → name, zip). */
  byWords: string[];
  /** The name asks for an id (`locate_user_id_by_email`). */
  returnsId: boolean;
  /** The object noun is plural (`get_invoices_for_customer`). */
  pluralNoun: boolean;
  params: ParamInfo[];
  /** Declared read-only: the document's hints or HTTP method say so (core's `toolAccess`). */
  readOnly: boolean;
  /** Declared as writing: the document's hints or HTTP method say so (core's `toolAccess`). */
  writes: boolean;
  /** Set for tools that only think, log or hand over to a person. */
  noopKind?: 'think' | 'transfer';
  /** Set for tools that evaluate an arithmetic expression given as a string parameter. */
  expressionParam?: string;
}

/** Reads a tool's name, description, parameters and hints. */
export function analyzeTool(tool: ToolSpec): ToolAnalysis {
  const rawWords = words(tool.name);
  const joined = rawWords.join(' ');
  const w = joinPhrasalVerbs(rawWords);
  let verbIndex = w.findIndex((x) => verbClassOf(x) !== undefined);
  // Prefer the first word when it is a verb; otherwise the first verb anywhere
  // (`shop_product_search_suggestions`).
  if (verbIndex < 0) verbIndex = -1;
  const verb = verbIndex >= 0 ? (w[verbIndex] as string) : undefined;
  let verbClass = verb ? verbClassOf(verb) : undefined;
  const byIndex = w.indexOf('by');
  let before = w.filter((_, i) => i !== verbIndex && (byIndex < 0 || i < byIndex));
  // `get_invoices_for_customer`: what follows `for`/`from`/`of` names the owner, not the object.
  const cut = before.findIndex((x, i) => i > 0 && (x === 'for' || x === 'from' || x === 'of' || x === 'in'));
  if (cut > 0) before = before.slice(0, cut);
  const byWords = byIndex >= 0 ? w.slice(byIndex + 1).filter((x) => x !== 'and') : [];
  const returnsId = byIndex > 0 && (w[byIndex - 1] === 'id' || w[byIndex - 1] === 'ids');
  const nonVerbs = before.filter((x) => !STOP_WORDS.has(x) && verbClassOf(x) === undefined);
  // `upload_file`: when every other word is a verb too, those words name the object.
  const nounWords = nonVerbs.length > 0 ? nonVerbs : before.filter((x) => !STOP_WORDS.has(x));
  const lastNoun = nounWords[nounWords.length - 1];
  const pluralNoun = lastNoun !== undefined && singularize(lastNoun) !== lastNoun;

  const root = tool.parameters;
  const inlined = inlineRefs(root, root);
  const props = (typeof inlined === 'object' ? inlined.properties : undefined) ?? {};
  const required = new Set(root.required ?? []);
  const params: ParamInfo[] = Object.entries(props).map(([name, s]) => {
    const schema = nonNull(s);
    const description = typeof schema.description === 'string' ? schema.description : '';
    const info: ParamInfo = { name, schema, required: required.has(name), examples: examplesFromText(description), description };
    const ref = idReference(name);
    if (ref) info.ref = ref;
    return info;
  });

  const desc = tool.description.toLowerCase();
  // What the document declares (hints, HTTP method), from core's one rule; the verb is read above.
  const declared = toolAccess(tool);
  const isDeclared = declared.source === 'hint' || declared.source === 'method';
  const readOnly = isDeclared && declared.access === 'read';
  const writes = isDeclared && declared.access === 'write';

  const analysis: ToolAnalysis = { tool, words: w, nounWords, byWords, returnsId, pluralNoun, params, readOnly, writes };
  if (verb !== undefined) analysis.verb = verb;

  const thinkLike =
    tool.hints?.toolType === 'think' ||
    (verb === 'think' && params.length <= 1) ||
    (/\bthink\b|\bthought\b/.test(desc) && /(not|n't)\s+(obtain|change|modify|alter)/.test(desc));
  const transferLike = /transfer|escalat|hand\s*(over|off)/.test(joined + ' ' + desc) && /\bhuman\b|\brepresentative\b|\bperson\b|\bsupervisor\b/.test(joined + ' ' + desc);
  if (thinkLike) {
    analysis.noopKind = 'think';
    verbClass = 'noop';
  } else if (transferLike && !params.some((p) => p.ref)) {
    analysis.noopKind = 'transfer';
    verbClass = 'noop';
  }
  const expression = params.find(
    (p) => p.schema.type === 'string' && /^(expression|expr|formula|equation|math_expression)$/.test(p.name),
  );
  if (expression && (verbClass === 'compute' || /calculat|comput|evaluat|math/.test(joined + ' ' + desc))) {
    analysis.expressionParam = expression.name;
    verbClass = 'compute';
  }
  if (verbClass !== undefined) analysis.verbClass = verbClass;
  return analysis;
}
