import type { JsonObject } from '@autoforge/core';
import { canonicalJson, isAutoForgeError } from '@autoforge/core';
import { createReferencePolicy, selectBackend } from '@autoforge/erpo/tfjs';
import { createLlmJudge } from '@autoforge/judge/llm';
import type { ChatModel } from '@autoforge/llm';
import { createOpenAIAgent } from '@autoforge/llm';
import type { JobKind, QueueClient, WorkerEvent } from '@autoforge/queue';
import { createProcessors, createQueueClient, createQueueWorker, isJobKind, JOB_KINDS, parseRedisUrl, QueueError } from '@autoforge/queue';
import { createLlmUser } from '@autoforge/user-sim';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { ModelFlags, ModelRole } from '../llm-options.js';
import { createRoleModel, modelConfig, modelIdentity, noModelError } from '../llm-options.js';

/** Options of `autoforge worker` (the model flags of `llm-options.ts` for the openai agent, the LLM user and judge). */
export interface WorkerCommandOptions extends ModelFlags {
  redis: string;
  concurrency: string;
  /** Comma-separated job kinds (default: all). */
  kinds?: string;
  prefix: string;
  lockDurationMs: string;
  stalledIntervalMs: string;
  /** Seconds to wait for active jobs after SIGTERM before leaving them to other workers. */
  shutdownTimeoutS: string;
  cache?: string | false;
  log?: boolean;
}

function integer(text: string, option: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim())) throw new CliError('E_USAGE', `${option} must be an integer, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new CliError('E_USAGE', `${option} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A queue error about the user's Redis (a bad URL, no Redis there) as a one-line CLI error. */
function cliQueueError(error: unknown, flag: string): unknown {
  if (error instanceof QueueError && (error.code === 'E_REDIS_URL' || error.code === 'E_REDIS_UNREACHABLE')) {
    return new CliError(error.code === 'E_REDIS_URL' ? 'E_USAGE' : 'E_INPUT', `${flag}: ${error.message}`);
  }
  return error;
}

/**
 * The queue client of `--queue <url>` on `synth`, `rollout` and `judge`: the URL checked, Redis
 * pinged. `AUTOFORGE_QUEUE_PREFIX` names another key prefix (default `autoforge`).
 * @throws CliError `E_USAGE` for a bad URL, `E_INPUT` when Redis does not answer.
 */
export async function openQueue(url: string, io: CliIo): Promise<QueueClient> {
  const parsed = parseRedisUrl(url);
  if (!parsed.ok) throw new CliError('E_USAGE', `--queue: ${parsed.issues.map((i) => i.message).join('; ')}`);
  try {
    return await createQueueClient({ redis: parsed.value, prefix: io.env.AUTOFORGE_QUEUE_PREFIX ?? 'autoforge' });
  } catch (error) {
    throw cliQueueError(error, '--queue');
  }
}

/**
 * Warns on stderr when no worker is connected to the queues of `kinds`: the jobs wait in Redis
 * until one starts (a wrong URL or `--prefix` on the workers looks the same).
 */
export async function warnWithoutWorkers(client: QueueClient, kinds: readonly JobKind[], io: CliIo): Promise<void> {
  const idle: JobKind[] = [];
  for (const kind of kinds) if ((await client.workers(kind)) === 0) idle.push(kind);
  if (idle.length > 0) io.stderr(`autoforge: no worker takes ${idle.join(', ')} jobs at ${client.target.shown} (prefix ${client.prefix}) yet; they wait until one runs \`autoforge worker --redis ${client.target.shown}\`\n`);
}

/** The line that says what the queue did for a command. */
export function queueStatsLine(client: QueueClient): string {
  const s = client.stats();
  return `queue ${client.target.shown}: ${s.submitted} job(s), ${s.cached} already stored, ${s.completed} run by workers, ${s.failed} failed${s.requeued > 0 ? `, ${s.requeued} enqueued again after Redis lost them` : ''}`;
}

/**
 * `autoforge worker --redis <url>`: a long-running worker on the job queues (synthesize an
 * environment, compile blueprints, roll out episodes, judge trajectories), as many on as many
 * machines as wanted. Agents: oracle, reference, openai; users: scripted, llm; judges: rule,
 * llm — the LLM ones on this worker's model flags, which must name the model the job asks for.
 * SIGTERM or SIGINT: takes no new job, finishes the active ones (for at most
 * `--shutdown-timeout-s`; after that, or on a second signal, it leaves them, and their locks
 * expire and other workers take them), then exits 0.
 */
export async function workerCommand(options: WorkerCommandOptions, io: CliIo): Promise<void> {
  const parsed = parseRedisUrl(options.redis);
  if (!parsed.ok) throw new CliError('E_USAGE', `--redis: ${parsed.issues.map((i) => i.message).join('; ')}`);
  const concurrency = integer(options.concurrency, '--concurrency', 1, 1024);
  const lockDurationMs = integer(options.lockDurationMs, '--lock-duration-ms', 100, 86_400_000);
  const stalledIntervalMs = integer(options.stalledIntervalMs, '--stalled-interval-ms', 100, 86_400_000);
  const shutdownS = integer(options.shutdownTimeoutS, '--shutdown-timeout-s', 0, 86_400);
  const kinds = (options.kinds ?? JOB_KINDS.join(',')).split(',').map((k) => k.trim()).filter((k) => k !== '');
  for (const k of kinds) if (!isJobKind(k)) throw new CliError('E_USAGE', `--kinds: unknown job kind "${k}" (known: ${JOB_KINDS.join(', ')})`);
  if (kinds.length === 0) throw new CliError('E_USAGE', '--kinds: name at least one job kind');

  // Models are made on first use: a worker without model flags serves the offline parts.
  const models = new Map<ModelRole, ChatModel>();
  const modelFor = (role: ModelRole, asked: unknown): ChatModel => {
    const config = modelConfig(role, options, io.env);
    if (!config) throw new QueueError('E_JOB_INPUT', `worker: the job needs a ${role} model and this worker has none (${noModelError(role, role).message})`);
    if (asked !== undefined && canonicalJson(asked) !== canonicalJson(modelIdentity(config))) {
      throw new QueueError('E_JOB_INPUT', `worker: the job asks for ${role} model ${canonicalJson(asked)}, this worker has ${canonicalJson(modelIdentity(config))}`);
    }
    let model = models.get(role);
    if (!model) {
      model = createRoleModel(config, { io, cache: options.cache ?? '.autoforge-cache/llm' });
      models.set(role, model);
    }
    return model;
  };
  const policies = new Map<number, ReturnType<typeof createReferencePolicy>>();
  const agents = new Map<string, ReturnType<typeof createOpenAIAgent>>();
  const processors = createProcessors({
    agents: {
      reference: (episode, o) => {
        const seed = typeof o.seed === 'number' ? o.seed : 0;
        let policy = policies.get(seed);
        if (!policy) {
          policy = createReferencePolicy({ seed });
          policies.set(seed, policy);
        }
        return policy.agent({ seed: episode.seed });
      },
      openai: (_episode, o) => {
        const model = modelFor('agent', o.model);
        const key = canonicalJson(o.model ?? null);
        let agent = agents.get(key);
        if (!agent) {
          agent = createOpenAIAgent({ model, temperature: 0 });
          agents.set(key, agent);
        }
        return agent;
      },
    },
    users: { llm: (episode, o) => createLlmUser(episode.task, { model: modelFor('user', o.model) }) },
    judges: { llm: (o: JsonObject) => createLlmJudge({ model: modelFor('judge', o.model) }) },
  });
  if (kinds.includes('rollout')) await selectBackend({ prefer: 'wasm', log: () => {} });

  const log = (event: WorkerEvent): void => {
    if (event.type === 'error') {
      if (options.log) io.stderr(`worker: ${event.message}\n`);
      return;
    }
    if (!options.log && !(event.type === 'failed' && event.final)) return;
    const id = `${event.kind} ${event.key.slice(0, 12)}`;
    if (event.type === 'active') io.stderr(`worker: ${id} started (attempt ${event.attempt})\n`);
    else if (event.type === 'completed') io.stderr(`worker: ${id} done${event.stored ? '' : ' (result was already stored)'}\n`);
    else io.stderr(`worker: ${id} failed (attempt ${event.attempt}${event.final ? ', final' : ''}): ${event.message}\n`);
  };
  let worker;
  try {
    worker = await createQueueWorker({
      redis: parsed.value,
      prefix: options.prefix,
      kinds: kinds as JobKind[],
      concurrency,
      processors,
      lockDurationMs,
      stalledIntervalMs,
      onEvent: log,
    });
  } catch (error) {
    throw cliQueueError(error, '--redis');
  }
  io.stderr(`worker: ${parsed.value.shown}, kinds ${kinds.join(', ')}, concurrency ${concurrency} (pid ${process.pid})\n`);
  let onTerm = (): void => undefined;
  let onInt = (): void => undefined;
  await new Promise<void>((resolve, reject) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        io.stderr(`worker: ${signal} again: leaving ${worker.active()} active job(s) to other workers\n`);
        worker.close({ force: true }).then(resolve, reject);
        return;
      }
      stopping = true;
      io.stderr(`worker: ${signal}: finishing ${worker.active()} active job(s)\n`);
      const timer = setTimeout(() => stop('shutdown time-out'), shutdownS * 1000);
      worker.close().then(() => {
        clearTimeout(timer);
        resolve();
      }, reject);
    };
    onTerm = () => stop('SIGTERM');
    onInt = () => stop('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
  }).catch((error: unknown) => {
    throw isAutoForgeError(error) ? error : new CliError('E_INPUT', `worker: ${error instanceof Error ? error.message : String(error)}`);
  });
  process.off('SIGTERM', onTerm);
  process.off('SIGINT', onInt);
  io.stderr('worker: closed\n');
}
