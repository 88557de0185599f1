// The choices of the CLI's options, in a module of their own: building the program (and so
// `--help` and `--version`) needs them, and must not load the packages the commands use.
import type { AdvantageEstimator } from '@autoforge/erpo';
import type { InjectedUserError, ToolDocFormat } from '@autoforge/core';

/** The formats `autoforge parse --format` accepts. */
export const TOOL_DOC_FORMATS: readonly (ToolDocFormat | 'auto')[] = [
  'auto',
  'openai-chat',
  'openai-responses',
  'openapi',
  'mcp',
  'json-schema-defs',
  'bfcl',
  'vitabench',
];

/** The agents `autoforge rollout` can run. */
export const AGENTS = ['oracle', 'reference', 'openai'] as const;
/** The user simulators `autoforge rollout` can run. */
export const USERS = ['scripted', 'llm'] as const;
/** The error kinds a scripted user can inject (user-sim's `SCRIPTED_ERROR_KINDS`, listed here so that the CLI starts without loading it). */
export const ERROR_KINDS: readonly InjectedUserError['kind'][] = ['wrong_fact', 'contradiction', 'early_stop', 'invented_requirement', 'withheld_fact', 'forbidden_choice'];
/** How the scripted user words its acts (user-sim's `UserSurface`). */
export const USER_SURFACES = ['plain', 'varied'] as const;

/** The judges `autoforge judge` can run. */
export const JUDGES = ['rule', 'llm'] as const;

/** The estimators `autoforge train` offers. */
export const ALGOS = ['erpo', 'grpo', 'dr-grpo', 'rloo', 'reinforce++-baseline'] as const satisfies readonly AdvantageEstimator[];

/** The agents `autoforge bench eval` can run. */
export const BENCH_AGENTS = ['oracle', 'openai', 'reference'] as const;

/** The formats `autoforge export` writes. */
export const EXPORT_FORMATS = ['verl', 'skyrl', 'trl', 'openai-sft', 'jsonl'] as const;
