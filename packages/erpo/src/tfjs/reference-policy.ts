import type { Agent, AgentContext, AssistantMessage, JsonValue, Message, Seed, ToolSpec } from '@autoforge/core';
import { createRng, digest } from '@autoforge/core';
import * as tf from '@tensorflow/tfjs';
import { ErpoError } from '../error.js';
import type { CandidateAction, CandidateLimits } from './candidates.js';
import { actionKey, candidateActions, renderCandidate } from './candidates.js';
import { FEATURE_SIZE, candidateFeatures, summarizeTurn } from './features.js';
import type { ActionLogProbs, TrainablePolicy } from './policy.js';

/** An episode as the reference policy replays it: its messages, and the tools it had (default: the policy's). */
export interface PolicyEpisode {
  messages: readonly Message[];
  tools?: readonly ToolSpec[];
}

/** Options of `createReferencePolicy`. */
export interface ReferencePolicyOptions {
  /** Seeds the initial weights and the sampling of actions. */
  seed: Seed;
  /** The tools of the episodes `logProb` replays when an episode does not carry its own. Default: none. */
  tools?: readonly ToolSpec[];
  /** Hidden units of the scoring network. Default 32. */
  hidden?: number;
  /** Softmax temperature. Default 1. */
  temperature?: number;
  /** Always take the best-scoring action (evaluation). Default false. */
  greedy?: boolean;
  /** Bounds of the candidate set. */
  limits?: CandidateLimits;
  /** Agent name. Default `'reference-policy'`. */
  name?: string;
}

/** Options of `ReferencePolicy.agent`. */
export interface AgentViewOptions {
  /** The sampling seed of this view (e.g. the rollout's seed). Default: the policy's seed. */
  seed?: Seed;
  /** Default: the policy's `greedy`. */
  greedy?: boolean;
  /** Default: the policy's `temperature`. */
  temperature?: number;
  /** Default: the policy's name. */
  name?: string;
}

/** One decision of the policy: the candidates and their probabilities. */
export interface PolicyDecision {
  candidates: CandidateAction[];
  probabilities: Float32Array;
  /** Index of the chosen candidate. */
  chosen: number;
}

/**
 * The offline reference policy: an `Agent` that at each turn picks one action from a finite
 * candidate set derived from the episode so far (call a tool with arguments bound to seen
 * values, ask the user for a fact, or finish), scored by a small tfjs network; plus what
 * `train` needs (`variables`, `logProb` over recorded episodes, `clone`).
 */
export interface ReferencePolicy extends Agent, TrainablePolicy<PolicyEpisode> {
  /** An agent sharing these weights with its own seed / greediness (one per rollout). */
  agent(options?: AgentViewOptions): Agent;
  /** The candidates at the next turn, their probabilities and the sampled choice. */
  decide(context: AgentContext, options?: AgentViewOptions): PolicyDecision;
  clone(): ReferencePolicy;
  /** Frees the variables. */
  dispose(): void;
}

interface Decision {
  features: Float32Array;
  count: number;
  chosen: number;
}

function glorot(rng: ReturnType<typeof createRng>, rows: number, cols: number): Float32Array {
  const out = new Float32Array(rows * cols);
  const scale = Math.sqrt(2 / (rows + cols));
  for (let i = 0; i < out.length; i++) out[i] = rng.normal() * scale;
  return out;
}

function encodeTurn(messages: readonly Message[], tools: readonly ToolSpec[], limits: CandidateLimits | undefined): { candidates: CandidateAction[]; features: Float32Array } {
  const candidates = candidateActions(messages, tools, limits);
  const summary = summarizeTurn(messages, tools);
  const features = new Float32Array(candidates.length * FEATURE_SIZE);
  candidates.forEach((c, i) => candidateFeatures(c, messages, summary, features, i * FEATURE_SIZE));
  return { candidates, features };
}

/**
 * Creates the reference policy. Initial weights come from `seed` (the output layer starts at 0,
 * so the untrained policy is uniform over candidates). Sampling at a turn is seeded by
 * (`seed`, digest of the messages so far), so the same seed and episode give the same action;
 * give each rollout its own view with `agent({ seed })`.
 */
export function createReferencePolicy(options: ReferencePolicyOptions): ReferencePolicy {
  const hidden = options.hidden ?? 32;
  if (!Number.isInteger(hidden) || hidden < 1) throw new ErpoError('E_OPTIONS', `erpo: hidden must be a positive integer, got ${hidden}`);
  const rng = createRng(options.seed, 'reference-policy', 'init');
  const w1 = tf.variable(tf.tensor2d(glorot(rng, FEATURE_SIZE, hidden), [FEATURE_SIZE, hidden]));
  const b1 = tf.variable(tf.zeros([hidden]));
  const w2 = tf.variable(tf.zeros([hidden, 1]));
  const b2 = tf.variable(tf.zeros([1]));
  return build(options, [w1, b1, w2, b2]);
}

function build(options: ReferencePolicyOptions, variables: tf.Variable[]): ReferencePolicy {
  const [w1, b1, w2, b2] = variables as [tf.Variable, tf.Variable, tf.Variable, tf.Variable];
  const defaults = { seed: options.seed, greedy: options.greedy ?? false, temperature: options.temperature ?? 1, name: options.name ?? 'reference-policy' };
  if (!(defaults.temperature > 0)) throw new ErpoError('E_OPTIONS', `erpo: temperature must be > 0, got ${defaults.temperature}`);
  const cache = new WeakMap<object, Decision[]>();

  const scores = (x: tf.Tensor2D): tf.Tensor1D =>
    tf.reshape(tf.add(tf.matMul(tf.tanh(tf.add(tf.matMul(x, w1), b1)), w2), b2), [-1]) as tf.Tensor1D;

  const decide = (context: AgentContext, view: AgentViewOptions = {}): PolicyDecision => {
    const temperature = view.temperature ?? defaults.temperature;
    const { candidates, features } = encodeTurn(context.messages, context.tools, options.limits);
    const probabilities = tf.tidy(() => {
      const s = scores(tf.tensor2d(features, [candidates.length, FEATURE_SIZE]));
      return tf.softmax(tf.div(s, temperature)).dataSync() as Float32Array;
    });
    let chosen = 0;
    if (view.greedy ?? defaults.greedy) {
      for (let i = 1; i < probabilities.length; i++) if ((probabilities[i] as number) > (probabilities[chosen] as number)) chosen = i;
    } else {
      const turnRng = createRng(view.seed ?? defaults.seed, 'act', digest(context.messages as unknown as JsonValue));
      chosen = turnRng.weightedIndex(Array.from(probabilities));
    }
    return { candidates, probabilities, chosen };
  };

  const act = (view: AgentViewOptions) => async (context: AgentContext): Promise<AssistantMessage> => {
    context.signal?.throwIfAborted();
    const d = decide(context, view);
    return renderCandidate(d.candidates[d.chosen] as CandidateAction, context.messages);
  };

  // Re-derives every agent turn of an episode: its candidates and which one the message is.
  const decisionsOf = (episode: PolicyEpisode, index: number): Decision[] => {
    const cached = cache.get(episode);
    if (cached) return cached;
    const tools = episode.tools ?? options.tools;
    if (tools === undefined) throw new ErpoError('E_POLICY', `erpo: episode ${index} carries no tools and the policy has no tools option`);
    const out: Decision[] = [];
    episode.messages.forEach((m, t) => {
      if (m.role !== 'assistant') return;
      const before = episode.messages.slice(0, t);
      const { candidates, features } = encodeTurn(before, tools, options.limits);
      const key = actionKey(m);
      const chosen = candidates.findIndex((c) => actionKey(renderCandidate(c, before)) === key);
      if (chosen < 0) {
        throw new ErpoError('E_POLICY', `erpo: episode ${index}, message ${t}: not one of the reference policy's ${candidates.length} candidate actions (${key.slice(0, 120)})`);
      }
      out.push({ features, count: candidates.length, chosen });
    });
    cache.set(episode, out);
    return out;
  };

  const logProb = (episodes: readonly PolicyEpisode[]): ActionLogProbs => {
    const decisions: Decision[] = [];
    const episodeOf: number[] = [];
    episodes.forEach((e, i) => {
      for (const d of decisionsOf(e, i)) {
        decisions.push(d);
        episodeOf.push(i);
      }
    });
    const d = decisions.length;
    const width = decisions.reduce((w, x) => Math.max(w, x.count), 1);
    const x = new Float32Array(d * width * FEATURE_SIZE);
    const valid = new Float32Array(d * width);
    const chosen = new Float32Array(d * width);
    decisions.forEach((dec, i) => {
      x.set(dec.features, i * width * FEATURE_SIZE);
      valid.fill(1, i * width, i * width + dec.count);
      chosen[i * width + dec.chosen] = 1;
    });
    const temperature = defaults.temperature;
    return tf.tidy(() => {
      if (d === 0) return { logProbs: tf.zeros([0]) as tf.Tensor1D, episodeOfAction: new Int32Array(0), entropy: tf.zeros([0]) as tf.Tensor1D };
      const s = tf.reshape(scores(tf.tensor2d(x, [d * width, FEATURE_SIZE])), [d, width]);
      const v = tf.tensor2d(valid, [d, width]);
      // Padding gets a large negative logit: exp underflows to 0, no NaN in the gradient.
      const logits = tf.add(tf.div(s, temperature), tf.mul(tf.sub(v, 1), 1e9));
      const logp = tf.logSoftmax(logits);
      const picked = tf.sum(tf.mul(logp, tf.tensor2d(chosen, [d, width])), 1) as tf.Tensor1D;
      const entropy = tf.neg(tf.sum(tf.mul(tf.mul(tf.exp(logp), logp), v), 1)) as tf.Tensor1D;
      return { logProbs: picked, episodeOfAction: Int32Array.from(episodeOf), entropy };
    });
  };

  const policy: ReferencePolicy = {
    name: defaults.name,
    variables,
    act: act({}),
    agent: (view = {}) => ({ name: view.name ?? defaults.name, act: act(view) }),
    decide,
    logProb,
    clone: () => build(options, variables.map((v) => tf.variable(v, false))),
    dispose: () => tf.dispose(variables),
  };
  return policy;
}
