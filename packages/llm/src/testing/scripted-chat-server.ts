import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonValue, TokenUsage } from '@autoforge/core';

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  /** Default: `call_<request index>_<call index>`. */
  id?: string;
  name: string;
  /** Raw JSON text, or a value that is serialized with `JSON.stringify`. */
  arguments: string | JsonValue;
}

/** Answer with a chat completion (JSON, or SSE chunks when the request has `stream: true`). */
export interface ReplyStep {
  type: 'reply';
  /** The text. Default: `null` when there are tool calls, else `''`. */
  content?: string | null;
  /** Tool calls. Default: none. */
  toolCalls?: readonly ScriptedToolCall[];
  /** Reported usage; `null` reports none. Default: four characters of text (messages as JSON) a token. */
  usage?: TokenUsage | null;
  /** Default: `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
  /** Characters per streamed text or argument delta. Default: `8`. */
  chunkSize?: number;
}

/** Answer with an HTTP error. */
export interface ErrorStep {
  type: 'error';
  status: number;
  /** A JSON body, or raw text. Default: an OpenAI-style `{ error: { message, type } }`. */
  body?: JsonValue;
  /** Extra headers, e.g. `{ 'retry-after-ms': '10' }`. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * Stop answering until the server closes or the client gives up: before any byte
 * (`before-headers`), or after the headers and the first part of the body (`mid-body`).
 */
export interface HangStep {
  type: 'hang';
  /** Default: `before-headers`. */
  when?: 'before-headers' | 'mid-body';
}

/** Answer 200 with a body that is not valid JSON (or an SSE event that is not). */
export interface MalformedStep {
  type: 'malformed';
  /** Default: a truncated chat completion. */
  body?: string;
}

/** Destroy the connection: before any byte (`before-headers`), or after part of the body. */
export interface DropStep {
  type: 'drop';
  /** Default: `mid-body`. */
  when?: 'before-headers' | 'mid-body';
}

/** What the server does with one chat request. A string is a text reply. */
export type ScriptStep = string | ReplyStep | ErrorStep | HangStep | MalformedStep | DropStep;

/** A request the server received. */
export interface RecordedRequest {
  /** 0-based position among the chat completion requests; `-1` for other requests. */
  index: number;
  method: string;
  /** The path, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (the raw text when it does not parse; `undefined` when empty). */
  body: unknown;
}

/** Options of {@link createScriptedChatServer}: a `script`, a `handler`, or both. */
export interface ScriptedChatServerOptions {
  /** Steps consumed in order, one per chat request. */
  script?: readonly ScriptStep[];
  /**
   * Decides the step for each chat request the script does not cover (it is asked only once
   * the script is used up). May be async, e.g. to hold a request.
   */
  handler?: (request: RecordedRequest) => ScriptStep | Promise<ScriptStep>;
  /** Model ids listed by `GET /v1/models`. Default: `['scripted-model']`. */
  models?: readonly string[];
}

/** A running scripted server. */
export interface ScriptedChatServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** `http://127.0.0.1:<port>/v1`, for `baseURL` options. */
  readonly baseURL: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Chat completion requests only, in arrival order. */
  chatRequests(): RecordedRequest[];
  /** Stops the server, cutting hung and kept-alive connections. */
  close(): Promise<void>;
}

const CHAT_PATH = '/v1/chat/completions';

/**
 * Starts a local OpenAI-compatible server on 127.0.0.1 (ephemeral port) for tests: `POST
 * /v1/chat/completions` (JSON or SSE streaming, tool calls) and `GET /v1/models`. Each chat
 * request takes the next script step, else asks the handler; with neither left it answers 400
 * (`script_exhausted`) so that a test fails loudly. Everything is deterministic: ids and
 * `created` come from the request index.
 *
 * @example
 * const server = await createScriptedChatServer({ script: ['Hello!', { type: 'error', status: 429 }] });
 * const model = createOpenAIChatModel({ baseURL: server.baseURL, model: 'scripted-model' });
 * await server.close();
 */
export async function createScriptedChatServer(options: ScriptedChatServerOptions = {}): Promise<ScriptedChatServer> {
  const script = [...(options.script ?? [])];
  const models = options.models ?? ['scripted-model'];
  const requests: RecordedRequest[] = [];
  let chatCount = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(`scripted server: ${String(error)}`, 'server_error'));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const isChat = req.method === 'POST' && path === CHAT_PATH;
    const recorded: RecordedRequest = {
      index: isChat ? chatCount++ : -1,
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body: parseBody(text),
    };
    requests.push(recorded);
    if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'autoforge' })),
      });
      return;
    }
    if (!isChat) {
      sendJson(res, 404, errorBody(`scripted server: no route for ${recorded.method} ${path}`, 'not_found'));
      return;
    }
    let step: ScriptStep | undefined = script.shift();
    if (step === undefined && options.handler) {
      try {
        step = await options.handler(recorded);
      } catch (error) {
        sendJson(res, 400, errorBody(`scripted server: the handler threw: ${String(error)}`, 'handler_error'));
        return;
      }
    }
    if (step === undefined) {
      sendJson(res, 400, errorBody(`scripted server: no step left for chat request #${recorded.index}`, 'script_exhausted'));
      return;
    }
    play(typeof step === 'string' ? { type: 'reply', content: step } : step, recorded, res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseURL: `${url}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.index >= 0),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function play(step: Exclude<ScriptStep, string>, request: RecordedRequest, res: ServerResponse): void {
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as {
    model?: unknown;
    stream?: unknown;
    stream_options?: { include_usage?: unknown };
  };
  const streaming = body.stream === true;
  switch (step.type) {
    case 'hang':
      if (step.when === 'mid-body') writeFirstPart(request, body, streaming, res);
      return;
    case 'error': {
      const payload = step.body ?? errorBody(`scripted error ${step.status}`, 'scripted_error');
      const isText = typeof payload === 'string';
      res.writeHead(step.status, {
        'content-type': isText ? 'text/plain' : 'application/json',
        ...step.headers,
      });
      res.end(isText ? payload : JSON.stringify(payload));
      return;
    }
    case 'malformed':
      if (streaming) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${step.body ?? '{"id": "chatcmpl-broken", "choices": ['}\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(step.body ?? '{"id": "chatcmpl-broken", "choices": [');
      }
      return;
    case 'drop':
      if (step.when === 'before-headers') {
        res.socket?.destroy();
        return;
      }
      writeFirstPart(request, body, streaming, res, () => res.socket?.destroy());
      return;
    case 'reply':
      if (streaming) streamReply(step, request, body, res);
      else sendJson(res, 200, completion(step, request, body));
      return;
  }
}

/** Headers and the start of a body: one SSE chunk, or the first bytes of a longer JSON body. */
function writeFirstPart(
  request: RecordedRequest,
  body: { model?: unknown },
  streaming: boolean,
  res: ServerResponse,
  then?: () => void,
): void {
  if (streaming) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify(chunk(request, body, { role: 'assistant', content: 'Let me' }, null))}\n\n`, then);
  } else {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    res.write('{"id": "chatcmpl-', then);
  }
}

interface ToolCallJson {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

function toolCallsOf(step: ReplyStep, request: RecordedRequest): ToolCallJson[] {
  return (step.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${request.index}_${i}`,
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
}

function usageOf(step: ReplyStep, request: RecordedRequest, calls: ToolCallJson[]): JsonValue {
  if (step.usage === null) return null;
  if (step.usage) {
    return {
      prompt_tokens: step.usage.promptTokens,
      completion_tokens: step.usage.completionTokens,
      total_tokens: step.usage.totalTokens,
    };
  }
  const messages = (request.body as { messages?: unknown } | undefined)?.messages ?? [];
  const promptTokens = Math.ceil(JSON.stringify(messages).length / 4);
  const completionTokens = Math.ceil(
    ((step.content ?? '').length + calls.reduce((n, c) => n + c.function.name.length + c.function.arguments.length, 0)) /
      4,
  );
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

function finishReasonOf(step: ReplyStep, calls: ToolCallJson[]): string {
  return step.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
}

function contentOf(step: ReplyStep, calls: ToolCallJson[]): string | null {
  return step.content === undefined ? (calls.length > 0 ? null : '') : step.content;
}

function modelOf(body: { model?: unknown }): string {
  return typeof body.model === 'string' ? body.model : 'scripted-model';
}

function completion(step: ReplyStep, request: RecordedRequest, body: { model?: unknown }): JsonValue {
  const calls = toolCallsOf(step, request);
  const message: Record<string, JsonValue> = { role: 'assistant', content: contentOf(step, calls) };
  if (calls.length > 0) message.tool_calls = calls as unknown as JsonValue;
  const usage = usageOf(step, request, calls);
  return {
    id: `chatcmpl-scripted-${request.index}`,
    object: 'chat.completion',
    created: 0,
    model: modelOf(body),
    choices: [{ index: 0, message, finish_reason: finishReasonOf(step, calls), logprobs: null }],
    ...(usage === null ? {} : { usage }),
  };
}

function chunk(
  request: RecordedRequest,
  body: { model?: unknown },
  delta: JsonValue,
  finishReason: string | null,
): JsonValue {
  return {
    id: `chatcmpl-scripted-${request.index}`,
    object: 'chat.completion.chunk',
    created: 0,
    model: modelOf(body),
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  };
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function streamReply(
  step: ReplyStep,
  request: RecordedRequest,
  body: { model?: unknown; stream_options?: { include_usage?: unknown } },
  res: ServerResponse,
): void {
  const size = Math.max(1, step.chunkSize ?? 8);
  const calls = toolCallsOf(step, request);
  const content = contentOf(step, calls);
  const events: JsonValue[] = [chunk(request, body, { role: 'assistant', content: content === null ? null : '' }, null)];
  for (const piece of pieces(content ?? '', size)) events.push(chunk(request, body, { content: piece }, null));
  calls.forEach((call, index) => {
    events.push(
      chunk(
        request,
        body,
        { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] },
        null,
      ),
    );
    for (const piece of pieces(call.function.arguments, size)) {
      events.push(chunk(request, body, { tool_calls: [{ index, function: { arguments: piece } }] }, null));
    }
  });
  events.push(chunk(request, body, {}, finishReasonOf(step, calls)));
  const usage = usageOf(step, request, calls);
  if (body.stream_options?.include_usage === true && usage !== null) {
    events.push({
      id: `chatcmpl-scripted-${request.index}`,
      object: 'chat.completion.chunk',
      created: 0,
      model: modelOf(body),
      choices: [],
      usage,
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
  res.end('data: [DONE]\n\n');
}

function errorBody(message: string, type: string): JsonValue {
  return { error: { message, type, param: null, code: null } };
}

function sendJson(res: ServerResponse, status: number, value: JsonValue): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}
