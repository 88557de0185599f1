import type { EffectAction, ToolEffect } from '@autoforge/core';
import type { DependencyBinding, DependencyEdgeAttributes, EffectLink, ResolvedBuildOptions, ToolAccess } from './dependency-graph.js';
import { compare } from './dependency-graph.js';

/** A tool as effect matching sees it. */
export interface EffectTool {
  name: string;
  effects: readonly ToolEffect[];
  /** Its required top-level parameters (for the edge score). */
  required: readonly string[];
}

// How sure each kind of state link is. A tool acting on what another made or changed is the
// strongest; a listing naming what a tool acts on is data flow proper; acting again on an
// instance an earlier call acted on, or a state the earlier one only needs, is weaker.
const SCORE = {
  made: 0.9,
  listed: 0.85,
  required: 0.75,
  context: 0.6,
  same: 0.6,
} as const;

const MAKES: ReadonlySet<EffectAction> = new Set(['creates', 'changes']);
const USES: ReadonlySet<EffectAction> = new Set(['reads', 'changes', 'removes']);

/**
 * Read or write from declared effects: a tool that creates, changes or removes something writes;
 * one that only reads, lists or touches nothing (`[]`) reads. Undefined when the effects say
 * neither (only `requires`) or are not declared.
 */
export function accessFromEffects(effects: readonly ToolEffect[] | undefined): ToolAccess | undefined {
  if (effects === undefined) return undefined;
  if (effects.some((e) => e.action === 'creates' || e.action === 'changes' || e.action === 'removes')) return 'write';
  if (effects.length === 0 || effects.some((e) => e.action === 'reads' || e.action === 'lists')) return 'read';
  return undefined;
}

/** `creates` → `creates`, `reads` → `reads` (third person, for reasons). */
const verb = (action: EffectAction): string => action;

/**
 * The state dependencies between tools that declare effects, as edges `A → B`:
 *
 * - A creates or changes resource R, B reads, changes or removes R (`mkdir` → `cd`, `touch` → `cat`);
 *   when both name the instance (`via`), B's parameter is bound to A's argument (`$input.dir_name`
 *   → `folder`), or to A's output when A says where the new instance is (`path`: `ticket_id`);
 * - A lists R at `path`, B acts on R through `via`: the listing supplies it (`ls` → `cat`);
 * - A creates R without naming it (a session), B requires R (`sign_in` → `post_note`);
 * - A changes R without naming it (the working directory), B reads it (`cd` → `ls`);
 * - A reads or changes an instance of R, B reads, changes or removes one (`cat` → `wc`): both
 *   on the same instance (`$input.file_name` → `file_name`).
 *
 * Edges come in source-then-target order; each carries its links and bindings.
 */
export function effectEdges(tools: readonly EffectTool[], options: Pick<ResolvedBuildOptions, 'selfLoops' | 'maxBindingsPerEdge'>): DependencyEdgeAttributes[] {
  const ordered = [...tools].sort((a, b) => compare(a.name, b.name));
  const edges: DependencyEdgeAttributes[] = [];
  for (const from of ordered) {
    for (const to of ordered) {
      if (from === to && !options.selfLoops) continue;
      const links: (EffectLink & { score: number })[] = [];
      const bindings: DependencyBinding[] = [];
      const bind = (outputPath: string, parameter: string, score: number, link: EffectLink, reason: string): void => {
        if (bindings.some((b) => b.outputPath === outputPath && b.parameter === parameter)) return;
        bindings.push({ outputPath, parameter, score, reason, effect: link });
      };
      for (const a of from.effects) {
        for (const b of to.effects) {
          if (a.resource !== b.resource) continue;
          const link: EffectLink = { resource: a.resource, from: a.action, to: b.action };
          const r = a.resource;
          if (MAKES.has(a.action) && USES.has(b.action)) {
            if (b.via !== undefined && a.via !== undefined) {
              bind(`$input.${a.via}`, b.via, SCORE.made, link, `${from.name} ${verb(a.action)} the ${r} (${a.via}) that ${to.name} ${verb(b.action)} (${b.via})`);
              links.push({ ...link, score: SCORE.made });
            } else if (b.via !== undefined && a.path !== undefined && a.action === 'creates') {
              bind(a.path, b.via, SCORE.made, link, `${from.name} creates the ${r} (${a.path}) that ${to.name} ${verb(b.action)} (${b.via})`);
              links.push({ ...link, score: SCORE.made });
            } else if (a.via === undefined && b.via === undefined) {
              // A state without instances (the working directory, a session's settings).
              links.push({ ...link, score: a.action === 'creates' ? SCORE.made : SCORE.context });
            }
          } else if (a.action === 'lists' && a.path !== undefined && USES.has(b.action) && b.via !== undefined) {
            bind(a.path, b.via, SCORE.listed, link, `${from.name} lists the ${r}s (${a.path}) that ${to.name} ${verb(b.action)} (${b.via})`);
            links.push({ ...link, score: SCORE.listed });
          } else if (a.action === 'creates' && b.action === 'requires' && a.via === undefined && a.path === undefined) {
            links.push({ ...link, score: SCORE.required });
          } else if (a.action === 'reads' && USES.has(b.action) && a.via !== undefined && b.via !== undefined) {
            bind(`$input.${a.via}`, b.via, SCORE.same, link, `${to.name} ${verb(b.action)} the ${r} (${b.via}) that ${from.name} ${verb(a.action)} (${a.via})`);
            links.push({ ...link, score: SCORE.same });
          }
        }
      }
      if (links.length === 0) continue;
      bindings.sort((x, y) => y.score - x.score);
      const kept = bindings.slice(0, options.maxBindingsPerEdge);
      const best = Math.max(...links.map((l) => l.score));
      const bound = new Set(kept.map((b) => b.parameter));
      const coverage = to.required.length === 0 ? 1 : to.required.filter((p) => bound.has(p)).length / to.required.length;
      const score = Math.round(best * (0.8 + 0.2 * coverage) * 1000) / 1000;
      const unique = new Map<string, EffectLink>();
      for (const { resource, from: f, to: t } of links) unique.set(`${resource}\u0000${f}\u0000${t}`, { resource, from: f, to: t });
      edges.push({ from: from.name, to: to.name, score, bindings: kept, origin: 'effects', effects: [...unique.values()] });
    }
  }
  return edges;
}

/** A tool that touches no state (`effects: []`), as value matching sees it. */
export interface PureTool {
  name: string;
  /** Scalar numeric outputs that are one value (not list elements), with their types. */
  numbers: { path: string; integer: boolean }[];
  /** Required top-level parameters that take one number, with their types. */
  numberParameters: { parameter: string; integer: boolean }[];
  required: readonly string[];
}

const PURE_SCORE = 0.7;

/**
 * Edges between tools that touch no state (calculators): a number one computes can feed a number
 * parameter of another (`add` → `multiply`, `result` → `a`), whatever the two are named, since a
 * pure tool's numeric output is the value of the computation and its number parameters are what
 * it computes with.
 */
export function pureValueEdges(tools: readonly PureTool[], options: Pick<ResolvedBuildOptions, 'selfLoops' | 'maxBindingsPerEdge'>): DependencyEdgeAttributes[] {
  const ordered = [...tools].sort((a, b) => compare(a.name, b.name));
  const edges: DependencyEdgeAttributes[] = [];
  for (const from of ordered) {
    if (from.numbers.length !== 1) continue;
    const { path: output, integer } = from.numbers[0] as { path: string; integer: boolean };
    for (const to of ordered) {
      if (from === to && !options.selfLoops) continue;
      // Any number can be passed where a number is wanted; only an integer where an integer is.
      const bindings = to.numberParameters
        .filter((p) => integer || !p.integer)
        .slice(0, options.maxBindingsPerEdge)
        .map(({ parameter }) => ({ outputPath: output, parameter, score: PURE_SCORE, reason: `${from.name} computes the number (${output}) that ${to.name} takes as ${parameter}` }));
      if (bindings.length === 0) continue;
      const coverage = to.required.length === 0 ? 1 : Math.min(1, 1 / to.required.length);
      edges.push({ from: from.name, to: to.name, score: Math.round(PURE_SCORE * (0.8 + 0.2 * coverage) * 1000) / 1000, bindings, origin: 'effects' });
    }
  }
  return edges;
}
