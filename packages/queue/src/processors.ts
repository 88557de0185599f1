import type { Agent, InjectedUserError, JsonObject, UserSimulator } from '@autoforge/core';
import { compileTask, createOracleAgent } from '@autoforge/dag-blueprint';
import { rollout } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import type { Judge } from '@autoforge/judge';
import { createRuleJudge } from '@autoforge/judge';
import { createScriptedUser } from '@autoforge/user-sim';
import { QueueError } from './error.js';
import type { JobInputs, JobKind, JobOutputs, RolloutEpisode } from './job-kinds.js';
import type { SpecCache } from './spec-cache.js';

/** What a processor gets besides its inputs. */
export interface ProcessorContext {
  /** Environments by spec digest (the worker's cache). */
  specs: SpecCache;
  /** Reports `done` of `total` items of the batch (BullMQ job progress, seen by clients as queue events). */
  progress(done: number, total: number): void;
}

/** Computes one kind of job's output from its inputs. Must be deterministic: same inputs, same output. */
export type Processor<K extends JobKind> = (input: JobInputs[K], context: ProcessorContext) => Promise<JobOutputs[K]>;

/** A processor for every job kind. */
export type Processors = { [K in JobKind]: Processor<K> };

/** Makes an episode's agent from the job's agent options. */
export type AgentFactory = (episode: RolloutEpisode, options: JsonObject) => Agent;
/** Makes an episode's user simulator from the job's user options. */
export type UserFactory = (episode: RolloutEpisode, options: JsonObject) => UserSimulator;
/** Makes a judge from the job's judge options. */
export type JudgeFactory = (options: JsonObject) => Judge;

/** Options of {@link createProcessors}. */
export interface ProcessorsOptions {
  /** Agents by kind, added to (or replacing) the built-in `oracle`. Default: only `oracle`. */
  agents?: Record<string, AgentFactory>;
  /** User simulators by kind, added to the built-in `scripted`. Default: only `scripted`. */
  users?: Record<string, UserFactory>;
  /** Judges by kind, added to the built-in `rule`. Default: only `rule`. */
  judges?: Record<string, JudgeFactory>;
  /** Episodes of one rollout job in flight at once (and trajectories of a judge job). Default: all of the batch. */
  batchConcurrency?: number;
}

/**
 * The built-in `oracle` agent: `createOracleAgent` of `@autoforge/dag-blueprint` on the episode's
 * blueprint (what `autoforge rollout --agent oracle` runs).
 */
export const oracleAgent: AgentFactory = (episode) => {
  if (!episode.blueprint) throw new QueueError('E_JOB_INPUT', `queue: rollout: task ${episode.task.id} has no blueprint (the oracle agent needs its plan)`);
  return createOracleAgent({ blueprint: episode.blueprint, task: episode.task });
};

/**
 * The built-in `scripted` user: `createScriptedUser` of `@autoforge/user-sim` seeded with the
 * episode's seed; options `errorRate` (default 0), `errorKinds` (default all) and `surface`
 * (`plain` or `varied`, default `plain`), as `autoforge rollout --user scripted` passes them.
 */
export const scriptedUser: UserFactory = (episode, options) => {
  const errorRate = options.errorRate ?? 0;
  if (typeof errorRate !== 'number') throw new QueueError('E_JOB_INPUT', 'queue: rollout: scripted user option errorRate must be a number');
  const kinds = options.errorKinds;
  if (kinds !== undefined && !(Array.isArray(kinds) && kinds.every((k) => typeof k === 'string'))) throw new QueueError('E_JOB_INPUT', 'queue: rollout: scripted user option errorKinds must be a list of kinds');
  const surface = options.surface ?? 'plain';
  if (surface !== 'plain' && surface !== 'varied') throw new QueueError('E_JOB_INPUT', 'queue: rollout: scripted user option surface must be "plain" or "varied"');
  return createScriptedUser(episode.task, { seed: episode.seed, errorRate, surface, ...(kinds !== undefined ? { errorKinds: kinds as InjectedUserError['kind'][] } : {}) });
};

/** The built-in `rule` judge: `createRuleJudge` of `@autoforge/judge` (option `name`). */
export const ruleJudge: JudgeFactory = (options) => createRuleJudge(typeof options.name === 'string' ? { name: options.name } : {});

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const run = async (): Promise<void> => {
    while (next < items.length) {
      const k = next++;
      out[k] = await fn(items[k] as T, k);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, run));
  return out;
}

function pick<F>(table: Record<string, F>, kind: string, what: string): F {
  const f = Object.prototype.hasOwnProperty.call(table, kind) ? table[kind] : undefined;
  if (!f) throw new QueueError('E_UNKNOWN_KIND', `queue: this worker has no ${what} "${kind}" (it has: ${Object.keys(table).sort().join(', ') || 'none'})`);
  return f;
}

/** Lets lock renewals and other timers run between CPU-bound steps. */
const yieldToTimers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The processors of every job kind, calling the same functions as a local run so that results are
 * byte-identical: `synthesizeEnvironment` (offline), `compileTask` on the spec's environment,
 * `rollout` with the job's agent and user, and the job's judge.
 *
 * @example
 * const processors = createProcessors({ agents: { mine: (episode) => myAgent(episode.task) } });
 */
export function createProcessors(options: ProcessorsOptions = {}): Processors {
  const agents: Record<string, AgentFactory> = { oracle: oracleAgent, ...options.agents };
  const users: Record<string, UserFactory> = { scripted: scriptedUser, ...options.users };
  const judges: Record<string, JudgeFactory> = { rule: ruleJudge, ...options.judges };
  const concurrency = options.batchConcurrency ?? Number.POSITIVE_INFINITY;
  if (!(concurrency === Number.POSITIVE_INFINITY || (Number.isInteger(concurrency) && concurrency >= 1))) {
    throw new QueueError('E_OPTIONS', `queue: batchConcurrency must be an integer >= 1, got ${String(options.batchConcurrency)}`);
  }
  return {
    'synth-env': async (input) => {
      const result = synthesizeEnvironment(input.toolDoc, {
        seed: input.seed,
        ...(input.sampleState !== undefined ? { sampleState: input.sampleState } : {}),
        ...(input.size !== undefined ? { size: input.size } : {}),
        ...(input.id !== undefined ? { id: input.id } : {}),
      });
      return Promise.resolve(result);
    },
    compile: async (input, context) => {
      const environment = await context.specs.acquire(input.spec);
      try {
        const results = [];
        for (const [i, job] of input.jobs.entries()) {
          results.push(compileTask(job.blueprint, environment, job.options));
          context.progress(i + 1, input.jobs.length);
          await yieldToTimers();
        }
        return results;
      } finally {
        context.specs.release(input.spec);
      }
    },
    rollout: async (input, context) => {
      const agentFor = pick(agents, input.agent.kind, 'agent');
      const userFor = pick(users, input.user.kind, 'user simulator');
      // Fail on a bad episode before any runs.
      const made = input.episodes.map((episode) => ({ agent: agentFor(episode, input.agent.options), user: userFor(episode, input.user.options) }));
      const environment = await context.specs.acquire(input.spec);
      let done = 0;
      try {
        return await mapLimited(input.episodes, concurrency, async (episode, k) => {
          const parts = made[k] as (typeof made)[number];
          const trajectory = await rollout({
            environment,
            task: episode.task,
            agent: parts.agent,
            user: parts.user,
            rollout: episode.rollout,
            seed: episode.seed,
            ...(input.limits ? { limits: input.limits } : {}),
            ...(input.userTools !== undefined ? { userTools: input.userTools } : {}),
          });
          done += 1;
          context.progress(done, input.episodes.length);
          return trajectory;
        });
      } finally {
        context.specs.release(input.spec);
      }
    },
    judge: async (input, context) => {
      const judge = pick(judges, input.judge.kind, 'judge')(input.judge.options);
      let done = 0;
      return mapLimited(input.items, concurrency, async (item) => {
        const verdict = await judge.judge(item.trajectory, item.task);
        done += 1;
        context.progress(done, input.items.length);
        return verdict;
      });
    },
  };
}
