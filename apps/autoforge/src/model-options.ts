// The model options every command that calls an LLM shares (`--model`, `--base-url`,
// `--temperature` and the per-role ones), as commander options: building the program needs them,
// so this module loads nothing but commander. What they resolve to lives in llm-options.ts.
import type { Command } from 'commander';
import { Option } from 'commander';

/** The parts a command's models play. `agent` is the shared one (`--model`, `AUTOFORGE_MODEL`). */
export type ModelRole = 'agent' | 'user' | 'judge';

/** The model flags as commander parses them (every one optional). */
export interface ModelFlags {
  model?: string;
  baseUrl?: string;
  temperature?: string;
  userModel?: string;
  userBaseUrl?: string;
  userTemperature?: string;
  judgeModel?: string;
  judgeBaseUrl?: string;
  judgeTemperature?: string;
  /** Check each endpoint with one request before the run (`--no-check` sets `false`). */
  check?: boolean;
}

/** The environment variables of a role, most specific first; the shared ones are the fallback. */
export const MODEL_ENV = {
  agent: { model: 'AUTOFORGE_MODEL', baseURL: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY', temperature: 'AUTOFORGE_TEMPERATURE' },
  user: { model: 'AUTOFORGE_USER_MODEL', baseURL: 'AUTOFORGE_USER_BASE_URL', apiKey: 'AUTOFORGE_USER_API_KEY', temperature: 'AUTOFORGE_USER_TEMPERATURE' },
  judge: { model: 'AUTOFORGE_JUDGE_MODEL', baseURL: 'AUTOFORGE_JUDGE_BASE_URL', apiKey: 'AUTOFORGE_JUDGE_API_KEY', temperature: 'AUTOFORGE_JUDGE_TEMPERATURE' },
} as const satisfies Record<ModelRole, Record<'model' | 'baseURL' | 'apiKey' | 'temperature', string>>;

/**
 * Adds the model options to a command: `--model`, `--base-url`, `--temperature` (shared), the
 * `--<role>-model`, `--<role>-base-url`, `--<role>-temperature` of each extra role, and, with
 * `check`, `--no-check`. `what` says which component the shared model drives (help text).
 */
export function withModelOptions<T extends Command>(command: T, options: { what: string; roles?: readonly Exclude<ModelRole, 'agent'>[]; check?: boolean }): T {
  command
    .addOption(new Option('--model <name>', `the model of ${options.what} (default: env AUTOFORGE_MODEL)`))
    .addOption(new Option('--base-url <url>', 'its OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 for vLLM (default: env OPENAI_BASE_URL, else OpenAI\'s; key: env OPENAI_API_KEY)'))
    .addOption(new Option('--temperature <t>', 'its sampling temperature, 0 to 2 (default: env AUTOFORGE_TEMPERATURE, else the component\'s, 0)'));
  for (const role of options.roles ?? []) {
    const env = MODEL_ENV[role];
    command
      .addOption(new Option(`--${role}-model <name>`, `the ${role === 'user' ? "simulated user's" : "judge's"} model (default: --model, env ${env.model}, AUTOFORGE_MODEL)`))
      .addOption(new Option(`--${role}-base-url <url>`, `its endpoint (default: --base-url, env ${env.baseURL}, OPENAI_BASE_URL; key: env ${env.apiKey}, OPENAI_API_KEY)`))
      .addOption(new Option(`--${role}-temperature <t>`, `its temperature (default: --temperature, env ${env.temperature}, AUTOFORGE_TEMPERATURE)`));
  }
  if (options.check) command.addOption(new Option('--no-check', 'do not check the model endpoints with one request before the run'));
  return command;
}
