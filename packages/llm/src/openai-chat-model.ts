import type { Message } from '@autoforge/core';
import { digest } from '@autoforge/core';
import type * as OpenAISdkModule from 'openai';
import type { OpenAI } from 'openai';
import pLimit from 'p-limit';
import type { ChatModel, ChatReply, CompleteOptions } from './chat-model.js';
import { LlmError } from './llm-error.js';
import {
  fromOpenAICompletion,
  toOpenAIMessages,
  toOpenAIResponseFormat,
  toOpenAIToolChoice,
  toOpenAITools,
} from './openai-format.js';
import type { ResponseCache } from './response-cache.js';
import { createFileCache } from './response-cache.js';
import type { RetryEvent, RetryPolicy } from './retry.js';
import { withRetries } from './retry.js';
import { createStreamAccumulator } from './stream-accumulator.js';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

type OpenAISdk = typeof OpenAISdkModule;
// The SDK loads with a model's first request, not with this package: a program that imports
// `@autoforge/llm` for its types, `completeJson` or the formats, or that never calls a model,
// does not pay for it.
let sdkLoading: Promise<OpenAISdk> | undefined;
let sdk: OpenAISdk | undefined;
function loadSdk(): Promise<OpenAISdk> {
  sdkLoading ??= import('openai').then((loaded) => (sdk = loaded));
  return sdkLoading;
}

/** Options of {@link createOpenAIChatModel}. Options win over environment variables. */
export interface OpenAIChatModelOptions {
  /** The model name. Default: `AUTOFORGE_MODEL`; one of the two is required. */
  model?: string;
  /** The endpoint, e.g. `http://localhost:8000/v1` (vLLM). Default: `OPENAI_BASE_URL`, else OpenAI's. */
  baseURL?: string;
  /**
   * The API key. Default: `OPENAI_API_KEY`; else `EMPTY` for a custom `baseURL` (local servers
   * ignore it); required for OpenAI's own endpoint.
   */
  apiKey?: string;
  /** Where the environment variables are read from. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra HTTP headers sent with every request. Default: none. */
  headers?: Readonly<Record<string, string>>;
  /** Stream each answer (SSE) and assemble it, tool-call deltas included. Default: `false`. */
  stream?: boolean;
  /** Time-out of one HTTP attempt, until the full answer is in, in ms. Default: `60000`. */
  timeoutMs?: number;
  /** Retries after the first attempt for 429, 5xx, time-outs and connection errors. Default: `4`. */
  maxRetries?: number;
  /** The first backoff, doubled on each retry, in ms. Default: `500`. */
  minBackoffMs?: number;
  /** The largest backoff, in ms. Default: `8000`. */
  maxBackoffMs?: number;
  /** The largest wait a server's `retry-after(-ms)` header can impose, in ms. Default: `60000`. */
  maxRetryAfterMs?: number;
  /** Spread each backoff uniformly over [half, all] of it. Default: `true`. */
  jitter?: boolean;
  /** The source of jitter, a function returning [0, 1). Default: `Math.random`. */
  random?: () => number;
  /** Most HTTP requests of this model in flight at once. Default: `8`. */
  concurrency?: number;
  /**
   * An on-disk response cache: identical requests (model, messages, tools, sampling options,
   * response format — not the base URL) are answered from `dir` without an HTTP request.
   * Default: no cache.
   */
  cache?: { dir: string };
  /** Called before each retry wait (logging, metrics). Default: none. */
  onRetry?: (event: RetryEvent) => void;
}

/** A {@link ChatModel} on an OpenAI-compatible endpoint. */
export interface OpenAIChatModel extends ChatModel {
  /** The endpoint's base URL. */
  readonly baseURL: string;
}

type Body = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/**
 * Creates a chat model on any OpenAI-compatible `/chat/completions` endpoint (OpenAI, vLLM,
 * Ollama, llama.cpp server) with the official `openai` SDK, adding retries with backoff and
 * jitter, a per-attempt time-out, a concurrency limit and an optional on-disk cache.
 *
 * @throws LlmError `E_CONFIG` when no model name is given or an option is out of range.
 * @example
 * const model = createOpenAIChatModel({ baseURL: 'http://localhost:8000/v1', model: 'Qwen/Qwen3-8B' });
 * const reply = await model.complete([{ role: 'user', content: 'Hello' }]);
 */
export function createOpenAIChatModel(options: OpenAIChatModelOptions = {}): OpenAIChatModel {
  const env = options.env ?? process.env;
  const model = options.model || env.AUTOFORGE_MODEL;
  if (!model) {
    throw new LlmError('E_CONFIG', 'llm: no model name: pass the `model` option or set AUTOFORGE_MODEL');
  }
  const baseURL = (options.baseURL || env.OPENAI_BASE_URL || OPENAI_BASE_URL).replace(/\/+$/, '');
  let apiKey = options.apiKey || env.OPENAI_API_KEY;
  if (!apiKey) {
    if (baseURL === OPENAI_BASE_URL) {
      throw new LlmError('E_CONFIG', `llm: no API key for ${baseURL}: pass the \`apiKey\` option or set OPENAI_API_KEY`);
    }
    apiKey = 'EMPTY';
  }
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? 60_000);
  const concurrency = positiveInteger('concurrency', options.concurrency ?? 8);
  const policy: RetryPolicy = {
    maxRetries: nonNegativeInteger('maxRetries', options.maxRetries ?? 4),
    minBackoffMs: nonNegative('minBackoffMs', options.minBackoffMs ?? 500),
    maxBackoffMs: nonNegative('maxBackoffMs', options.maxBackoffMs ?? 8000),
    maxRetryAfterMs: nonNegative('maxRetryAfterMs', options.maxRetryAfterMs ?? 60_000),
    jitter: options.jitter ?? true,
    // Jitter only spreads retry times; it never reaches data, so it need not be seeded.
    // eslint-disable-next-line no-restricted-syntax
    random: options.random ?? (() => Math.random()),
    onRetry: options.onRetry,
  };
  const stream = options.stream ?? false;
  const cache: ResponseCache | undefined = options.cache ? createFileCache(options.cache.dir) : undefined;
  const endpoint = `${baseURL}/chat/completions`;
  const limit = pLimit(concurrency);
  let clientLoading: Promise<OpenAI> | undefined;
  const openClient = (): Promise<OpenAI> => {
    clientLoading ??= loadSdk().then(
      ({ OpenAI }) =>
        new OpenAI({
          apiKey,
          baseURL,
          organization: null,
          project: null,
          // Retries and time-outs are ours (backoff with jitter, retry-after caps, typed errors).
          maxRetries: 0,
          timeout: timeoutMs + 1000,
          logLevel: 'off',
          ...(options.headers ? { defaultHeaders: { ...options.headers } } : {}),
        }),
    );
    return clientLoading;
  };

  async function attemptOnce(body: Body, signal: AbortSignal | undefined): Promise<ChatReply> {
    // Before the attempt's clock starts: loading the SDK is no part of the server's answer time.
    const client = await openClient();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const interrupted = (): LlmError | undefined => {
      if (signal?.aborted) {
        return new LlmError('E_ABORTED', `llm: POST ${endpoint}: aborted by the caller`, { endpoint, cause: signal.reason });
      }
      if (timedOut) {
        return new LlmError('E_TIMEOUT', `llm: POST ${endpoint}: no complete answer within ${timeoutMs} ms`, {
          endpoint,
          retryable: true,
        });
      }
      return undefined;
    };
    try {
      if (signal?.aborted) throw interrupted();
      if (stream) {
        const chunks = await client.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          { signal: controller.signal },
        );
        const accumulator = createStreamAccumulator();
        for await (const chunk of chunks) accumulator.add(chunk);
        // The SDK ends a stream quietly when it is aborted: a partial answer must not pass.
        const stop = interrupted();
        if (stop) throw stop;
        if (!accumulator.finished) {
          throw new LlmError('E_BAD_RESPONSE', `llm: POST ${endpoint}: the stream ended without a finish_reason`, {
            endpoint,
            retryable: true,
          });
        }
        return accumulator.reply();
      }
      const completion: unknown = await client.chat.completions.create(body, { signal: controller.signal });
      const reply = fromOpenAICompletion(completion);
      if (!reply) {
        throw new LlmError('E_BAD_RESPONSE', `llm: POST ${endpoint}: the answer is not a chat completion`, { endpoint });
      }
      return reply;
    } catch (error) {
      throw interrupted() ?? toLlmError(error, endpoint);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    model,
    baseURL,
    async complete(messages: readonly Message[], callOptions: CompleteOptions = {}): Promise<ChatReply> {
      const body = requestBody(model, messages, callOptions);
      const key = cache ? digest({ version: 1, request: body }) : '';
      const hit = await cache?.get(key);
      if (hit) return hit;
      const { signal } = callOptions;
      const reply = await withRetries(() => limit(() => attemptOnce(body, signal)), policy, { endpoint, signal });
      await cache?.set(key, body, reply);
      return reply;
    },
  };
}

function requestBody(model: string, messages: readonly Message[], options: CompleteOptions): Body {
  const body: Body = { model, messages: toOpenAIMessages(messages) };
  if (options.tools && options.tools.length > 0) body.tools = toOpenAITools(options.tools);
  if (options.toolChoice !== undefined) body.tool_choice = toOpenAIToolChoice(options.toolChoice);
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  if (options.seed !== undefined) body.seed = options.seed;
  if (options.stop !== undefined) body.stop = [...options.stop];
  if (options.responseFormat !== undefined) body.response_format = toOpenAIResponseFormat(options.responseFormat);
  return body;
}

/** Maps whatever the SDK or fetch threw to a typed, classified error. */
function toLlmError(error: unknown, endpoint: string): LlmError {
  if (error instanceof LlmError) return error;
  const where = `llm: POST ${endpoint}`;
  // The SDK is loaded: every error that reaches here comes from a request made with it.
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk as OpenAISdk;
  if (error instanceof APIUserAbortError) {
    return new LlmError('E_ABORTED', `${where}: aborted`, { cause: error, endpoint });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new LlmError('E_TIMEOUT', `${where}: timed out`, { cause: error, endpoint, retryable: true });
  }
  if (error instanceof APIConnectionError) {
    const reason = error.cause instanceof Error ? describeCause(error.cause) : error.message;
    return new LlmError('E_CONNECTION', `${where}: connection failed: ${reason}`, {
      cause: error,
      endpoint,
      retryable: true,
    });
  }
  if (error instanceof APIError) {
    const inner = (error.error as { message?: unknown } | undefined)?.message;
    const detail = typeof inner === 'string' ? inner : error.message;
    if (error.status === undefined) {
      return new LlmError('E_BAD_RESPONSE', `${where}: the server reported an error in the stream: ${detail}`, {
        cause: error,
        endpoint,
      });
    }
    const status = error.status;
    const retryAfterMs = retryAfter(error.headers);
    return new LlmError('E_HTTP', `${where}: HTTP ${status}: ${detail}`, {
      cause: error,
      endpoint,
      status,
      retryable: status === 408 || status === 409 || status === 429 || status >= 500,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (error instanceof SyntaxError) {
    return new LlmError('E_BAD_RESPONSE', `${where}: the answer is not valid JSON: ${error.message}`, {
      cause: error,
      endpoint,
      retryable: true,
    });
  }
  if (error instanceof TypeError) {
    // undici reports a connection dropped while the body is read as `TypeError: terminated`.
    return new LlmError('E_CONNECTION', `${where}: connection failed: ${describeCause(error)}`, {
      cause: error,
      endpoint,
      retryable: true,
    });
  }
  return new LlmError('E_BAD_RESPONSE', `${where}: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
    endpoint,
  });
}

function describeCause(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** The wait a server asks for with `retry-after-ms` (ms) or `retry-after` (seconds or a date). */
function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  // A duration against the wall clock, as HTTP dates demand; it never reaches data.
  // eslint-disable-next-line no-restricted-syntax
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) throw configError(name, value, 'a positive number');
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0)) throw configError(name, value, 'a non-negative number');
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) throw configError(name, value, 'a positive integer');
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!(Number.isInteger(value) && value >= 0)) throw configError(name, value, 'a non-negative integer');
  return value;
}

function configError(name: string, value: number, expected: string): LlmError {
  return new LlmError('E_CONFIG', `llm: option \`${name}\` must be ${expected}, got ${String(value)}`);
}
