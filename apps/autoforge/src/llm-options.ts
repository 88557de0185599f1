// The model options every command that calls an LLM shares: which model, at which endpoint, with
// which temperature, for each role (agent, user, judge); a check of each endpoint before a run;
// and a watch that turns the first dead-endpoint failure of a run into the command's failure.
import { readFile, stat, truncate } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ModelFlags, ModelRole } from './model-options.js';
import { MODEL_ENV } from './model-options.js';
import type { JsonObject } from '@autoforge/core';
import { AutoForgeError } from '@autoforge/core';
import type { ChatModel, ChatReply, CompleteOptions, LlmError } from '@autoforge/llm';
import { createOpenAIChatModel, isLlmError } from '@autoforge/llm';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';

export type { ModelFlags, ModelRole } from './model-options.js';
export { MODEL_ENV, withModelOptions } from './model-options.js';

const FLAG_KEYS = {
  agent: { model: 'model', baseUrl: 'baseUrl', temperature: 'temperature' },
  user: { model: 'userModel', baseUrl: 'userBaseUrl', temperature: 'userTemperature' },
  judge: { model: 'judgeModel', baseUrl: 'judgeBaseUrl', temperature: 'judgeTemperature' },
} as const satisfies Record<ModelRole, Record<'model' | 'baseUrl' | 'temperature', keyof ModelFlags>>;

/** Where a role's model comes from, resolved from flags and environment variables. */
export interface ModelConfig {
  role: ModelRole;
  model: string;
  /** The endpoint as given; `undefined`: the library's default (OpenAI's). */
  baseURL: string | undefined;
  apiKey: string | undefined;
  /** `undefined`: each component's own default (0 for the agent, user and judge). */
  temperature: number | undefined;
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

function parseTemperature(text: string, where: string): number {
  const t = Number(text);
  if (text.trim() === '' || !Number.isFinite(t) || t < 0 || t > 2) throw new CliError('E_USAGE', `${where} must be a number from 0 to 2, got "${text}"`);
  return t;
}

function parseBaseUrl(text: string, where: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError('E_USAGE', `${where} must be an http(s) URL such as http://localhost:8000/v1, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError('E_USAGE', `${where} must be an http(s) URL, got "${text}"`);
  return text.replace(/\/+$/, '');
}

/**
 * The model of a role: the role's flag, then the shared flag, then the role's environment
 * variable, then the shared one, for each of model name, base URL and temperature; the API key
 * from the role's variable, else `OPENAI_API_KEY`. `undefined` when no model name is set.
 * @throws CliError `E_USAGE` for a base URL or temperature that does not parse.
 */
export function modelConfig(role: ModelRole, flags: ModelFlags, env: CliIo['env']): ModelConfig | undefined {
  const keys = FLAG_KEYS[role];
  const vars = MODEL_ENV[role];
  const shared = MODEL_ENV.agent;
  const pick = (flag: 'model' | 'baseUrl' | 'temperature', variable: 'model' | 'baseURL' | 'temperature'): { value: string; where: string } | undefined => {
    const candidates: [string | undefined, string][] = [
      [flags[keys[flag]] as string | undefined, `--${keys[flag].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`],
      [flags[flag] as string | undefined, `--${flag === 'baseUrl' ? 'base-url' : flag}`],
      [env[vars[variable]], vars[variable]],
      [env[shared[variable]], shared[variable]],
    ];
    for (const [value, where] of candidates) {
      const v = nonEmpty(value);
      if (v !== undefined) return { value: v, where };
    }
    return undefined;
  };
  const model = pick('model', 'model');
  if (model === undefined) return undefined;
  const base = pick('baseUrl', 'baseURL');
  const temperature = pick('temperature', 'temperature');
  return {
    role,
    model: model.value,
    baseURL: base === undefined ? undefined : parseBaseUrl(base.value, base.where),
    apiKey: nonEmpty(env[vars.apiKey]) ?? nonEmpty(env[shared.apiKey]),
    temperature: temperature === undefined ? undefined : parseTemperature(temperature.value, temperature.where),
  };
}

/** What a resume key records of a model: its name, endpoint and temperature (never the key). */
export function modelIdentity(config: ModelConfig): JsonObject {
  return { model: config.model, baseURL: config.baseURL ?? 'https://api.openai.com/v1', temperature: config.temperature ?? null };
}

const RUN_FAILED = 'failed during the run';

/** Error code of a model endpoint that is down, refuses, or rejects the configuration. */
export type EndpointErrorCode = 'E_ENDPOINT';

/**
 * A model endpoint failed in a way no later request can recover from (refused or dropped
 * connections and time-outs after every retry, 401/403/404): the command stops, exit 2.
 */
export class EndpointError extends AutoForgeError<EndpointErrorCode> {
  readonly role: ModelRole;
  readonly endpoint: string;

  constructor(config: ModelConfig, endpoint: string, when: string, cause: LlmError, label: string = config.role) {
    // The innermost error says what happened; the attempts say that retrying did not help.
    const last = cause.code === 'E_RETRIES_EXHAUSTED' && isLlmError(cause.cause) ? cause.cause : cause;
    const attempts = cause.attempts === undefined ? '' : ` (${cause.attempts} attempts)`;
    super(
      'E_ENDPOINT',
      `the ${label} model "${config.model}" at ${endpoint} ${when}: ${last.message.replace(/^llm: /, '')}${attempts}; ` +
        `check that the server runs, the model name, --base-url / OPENAI_BASE_URL and the API key${when === RUN_FAILED ? ', then rerun to resume' : ''}`,
      { cause },
    );
    this.role = config.role;
    this.endpoint = endpoint;
  }
}

/** Whether an error of the model means the endpoint, not this request, is at fault. */
export function isEndpointFailure(error: unknown): error is LlmError {
  if (!isLlmError(error)) return false;
  if (error.code === 'E_CONNECTION' || error.code === 'E_TIMEOUT' || error.code === 'E_RETRIES_EXHAUSTED') return true;
  return error.code === 'E_HTTP' && (error.status === 401 || error.status === 403 || error.status === 404);
}

/**
 * The endpoint failure of a run: once one model call fails with {@link isEndpointFailure}, every
 * later call of every model of the run fails at once with the same {@link EndpointError}, so a
 * run stops making requests and the command can fail with it.
 */
export interface EndpointWatch {
  readonly failure: EndpointError | undefined;
  /** Throws the failure, if there was one. */
  throwIfFailed(): void;
}

interface WatchState extends EndpointWatch {
  failure: EndpointError | undefined;
}

/** A new {@link EndpointWatch}. */
export function createEndpointWatch(): EndpointWatch {
  const state: WatchState = {
    failure: undefined,
    throwIfFailed() {
      if (state.failure) throw state.failure;
    },
  };
  return state;
}

/** Options of {@link createRoleModel}. */
export interface RoleModelOptions {
  io: CliIo;
  /** The on-disk response cache folder (relative to `io.cwd`), or `false`/`undefined` for none. */
  cache?: string | false | undefined;
  /**
   * The run's watch (shared by its models). Default: none, each call fails on its own (a
   * server, whose endpoint may come back).
   */
  watch?: EndpointWatch;
  /** What the model is called in messages. Default: its role. */
  label?: string;
}

/** A role's model: the `@autoforge/llm` OpenAI-compatible model, its temperature, the watch. */
export interface RoleModel extends ChatModel {
  readonly config: ModelConfig;
  readonly baseURL: string;
}

/**
 * The chat model of a configuration on `@autoforge/llm`'s `createOpenAIChatModel`: the
 * temperature, when set, replaces the component's own; an endpoint failure trips the watch.
 */
export function createRoleModel(config: ModelConfig, options: RoleModelOptions): RoleModel {
  const cacheDir = options.cache === false || options.cache === undefined ? undefined : resolve(options.io.cwd, options.cache);
  const inner = createOpenAIChatModel({
    model: config.model,
    env: options.io.env,
    ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {}),
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
    ...(cacheDir ? { cache: { dir: cacheDir } } : {}),
  });
  const state = options.watch as WatchState | undefined;
  return {
    model: inner.model,
    baseURL: inner.baseURL,
    config,
    async complete(messages, callOptions: CompleteOptions = {}): Promise<ChatReply> {
      if (state?.failure) throw state.failure;
      try {
        return await inner.complete(messages, config.temperature === undefined ? callOptions : { ...callOptions, temperature: config.temperature });
      } catch (error) {
        if (!isEndpointFailure(error) || state === undefined) throw error;
        state.failure ??= new EndpointError(config, inner.baseURL, RUN_FAILED, error, options.label);
        throw state.failure;
      }
    },
  };
}

/** Whether an answer of the check means the endpoint is up (it answered, if not to our liking). */
function answered(error: LlmError): boolean {
  if (error.code === 'E_HTTP') return error.status !== undefined && error.status < 500 && error.status !== 401 && error.status !== 403 && error.status !== 404;
  // Rate limited through every retry: the server is there.
  return error.code === 'E_RETRIES_EXHAUSTED' && isLlmError(error.cause, 'E_HTTP') && error.cause.status === 429;
}

/**
 * Checks each distinct endpoint of `configs` with one cheap chat request (one token, no cache)
 * through `@autoforge/llm`, as the run will talk to it. A refused connection, a time-out, a 5xx
 * after two retries, 401/403 (the key) or 404 (the path or the model) fails; an endpoint that
 * answers anything else (a 400 about `max_tokens`, a 429) is up.
 * @throws EndpointError for the first endpoint that fails.
 */
export async function checkEndpoints(configs: readonly ModelConfig[], io: CliIo, options: { timeoutMs?: number } = {}): Promise<void> {
  const seen = new Set<string>();
  for (const config of configs) {
    const probe = createOpenAIChatModel({
      model: config.model,
      env: io.env,
      ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {}),
      ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
      maxRetries: 2,
      minBackoffMs: 250,
      timeoutMs: options.timeoutMs ?? 30_000,
    });
    const key = `${probe.model}\n${probe.baseURL}\n${config.apiKey ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      await probe.complete([{ role: 'user', content: 'Reply with OK.' }], { maxTokens: 1, temperature: 0 });
    } catch (error) {
      if (isLlmError(error) && !answered(error)) throw new EndpointError(config, probe.baseURL, 'did not pass the check before the run', error);
      if (!isLlmError(error)) throw error;
    }
  }
}

/**
 * Cuts a trajectory file (JSON Lines, in job order) before its first episode that the endpoint
 * failure ended, so that the episodes it spoiled, and those after it, run again on a rerun (as
 * after a crash). Returns how many episodes were kept.
 */
export async function dropSpoiledEpisodes(file: string, failure: EndpointError): Promise<{ kept: number; dropped: number }> {
  const text = await readFile(file, 'utf8');
  const lines = text.split('\n');
  let offset = 0;
  let kept = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() !== '') {
      const error = (JSON.parse(line) as { metadata?: { error?: unknown } }).metadata?.error;
      if (typeof error === 'string' && error.includes(failure.message)) {
        const dropped = lines.slice(i).filter((l) => l.trim() !== '').length;
        await truncate(file, offset);
        return { kept, dropped };
      }
      kept += 1;
    }
    offset += Buffer.byteLength(line) + 1;
  }
  return { kept, dropped: 0 };
}

/** Whether a file exists and is not empty (a resume file with finished items in it). */
export async function fileHasContent(file: string): Promise<boolean> {
  return ((await stat(file).catch(() => undefined))?.size ?? 0) > 0;
}

/** The message of a command that needs a model and has none. */
export function noModelError(what: string, role: ModelRole = 'agent'): CliError {
  const flag = role === 'agent' ? '--model' : `--${role}-model (or --model)`;
  const env = role === 'agent' ? 'AUTOFORGE_MODEL' : `${MODEL_ENV[role].model} or AUTOFORGE_MODEL`;
  return new CliError('E_USAGE', `${what} needs a model: pass ${flag} or set ${env} (and --base-url / OPENAI_BASE_URL for a local server such as vLLM, Ollama or llama.cpp)`);
}

/** The configuration of a role that the command cannot run without. */
export function requireModelConfig(role: ModelRole, flags: ModelFlags, io: CliIo, what: string): ModelConfig {
  const config = modelConfig(role, flags, io.env);
  if (config === undefined) throw noModelError(what, role);
  return config;
}

/** The models of one run: one per role it uses, sharing one {@link EndpointWatch}. */
export interface RunModels {
  readonly watch: EndpointWatch;
  /** The configurations of the roles used, in the order given. */
  readonly configs: readonly ModelConfig[];
  /** Each used role's model name, endpoint and temperature (a resume key); `undefined` for none. */
  readonly identity: JsonObject | undefined;
  /** The model of a used role. @throws CliError `E_USAGE` for a role not set up. */
  model(role: ModelRole): RoleModel;
  /** With `check`: one request per distinct endpoint ({@link checkEndpoints}). */
  check(): Promise<void>;
  /**
   * After a run: when an endpoint failed, cuts the trajectory file `file` (if given) before the
   * first episode it spoiled, says so on stderr, and throws the {@link EndpointError}.
   */
  throwIfFailed(file?: string): Promise<void>;
}

/**
 * Sets up the models of the roles a run uses (`uses`: role → the option that needs it, for the
 * message when no model is configured). Models are created at once, so a missing model name or
 * a bad flag fails before any work.
 */
export function runModels(uses: Partial<Record<ModelRole, string>>, flags: ModelFlags & { cache?: string | false }, io: CliIo): RunModels {
  const watch = createEndpointWatch();
  const models = new Map<ModelRole, RoleModel>();
  const configs: ModelConfig[] = [];
  for (const [role, what] of Object.entries(uses) as [ModelRole, string][]) {
    const config = requireModelConfig(role, flags, io, what);
    configs.push(config);
    models.set(role, createRoleModel(config, { io, cache: flags.cache, watch }));
  }
  return {
    watch,
    configs,
    identity: configs.length === 0 ? undefined : Object.fromEntries(configs.map((c) => [c.role, modelIdentity(c)])),
    model(role) {
      const model = models.get(role);
      if (!model) throw noModelError(role, role);
      return model;
    },
    async check() {
      if (flags.check === true) await checkEndpoints(configs, io);
    },
    async throwIfFailed(file) {
      const failure = watch.failure;
      if (!failure) return;
      if (file !== undefined) {
        const { kept, dropped } = await dropSpoiledEpisodes(file, failure);
        io.stderr(`autoforge: ${file}: kept ${kept} finished episode(s); ${dropped} episode(s) from the first one the endpoint failure ended were removed and run again on a rerun\n`);
      }
      throw failure;
    },
  };
}
