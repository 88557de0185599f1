import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { isAutoForgeError } from '@autoforge/core';
import { envCallCommand, envSynthCommand } from './commands/env.js';
import type { EnvSynthCommandOptions } from './commands/env.js';
import { parseCommand, TOOL_DOC_FORMATS } from './commands/parse.js';
import { synthCommand, verifyCommand } from './commands/synth.js';
import type { SynthCommandOptions } from './commands/synth.js';
import type { ParseCommandOptions } from './commands/parse.js';
import { CliError, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_VERIFY_FAILED } from './errors.js';
import type { CliIo } from './io.js';

import { VERSION } from './version.js';

export { VERSION };

let verifyFailed = false;

function buildProgram(io: CliIo): Command {
  const program = new Command('autoforge')
    .description('Tool docs in, verifiable RL environments, tasks, rollouts and ERPO advantages out.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run "autoforge --help" for usage)');

  program
    .command('parse')
    .description('parse a tool description document and print the normalized ToolDoc as JSON')
    .argument('<file>', 'OpenAI tools, OpenAPI 3.x (JSON/YAML), MCP tools/list, tau2, BFCL/ACEBench or VitaBench file')
    .addOption(
      new Option('-f, --format <format>', 'force the input format').choices([...TOOL_DOC_FORMATS]).default('auto'),
    )
    .option('--sample <id>', 'ACEBench/BFCL JSON Lines: only the tools of this sample')
    .option('--compact', 'print the JSON on one line')
    .action(async (file: string, options: ParseCommandOptions) => {
      await parseCommand(file, options, io);
    });

  const env = program.command('env').description('synthesize environments and call their tools');
  env
    .command('synth')
    .description('synthesize an executable environment (EnvironmentSpec JSON) from a tool doc')
    .argument('<tooldoc>', 'tool description document (any format `autoforge parse` reads)')
    .requiredOption('-o, --out <file>', 'where to write the EnvironmentSpec JSON')
    .option('--db <path>', 'sample database: a JSON/TOML file, or a directory of <collection>.json files')
    .option('--seed <n>', 'seed of every random choice', '0')
    .option('--size <n>', 'records per collection of a generated state (without --db)')
    .option('--llm', 'let an LLM write the state schema and tools (OPENAI_BASE_URL, AUTOFORGE_MODEL)')
    .option('--cache <dir>', 'with --llm: on-disk response cache', '.autoforge-cache/llm')
    .option('--no-cache', 'with --llm: do not cache model responses')
    .option('--json', 'print the synthesis report as JSON instead of a summary')
    .action(async (tooldoc: string, options: EnvSynthCommandOptions) => {
      await envSynthCommand(tooldoc, options, io);
    });
  env
    .command('call')
    .description('run one tool call on the seed state of an environment and print its output')
    .argument('<env>', 'EnvironmentSpec JSON file (from `autoforge env synth`)')
    .argument('<tool>', 'tool name')
    .argument('[args]', 'arguments as a JSON object', '{}')
    .action(async (file: string, tool: string, args: string) => {
      await envCallCommand(file, tool, args, io);
    });

  program
    .command('synth')
    .description('tool doc → environment → dependency graph → walks → blueprints → verified tasks (a run directory)')
    .argument('<tooldoc>', 'tool description document')
    .requiredOption('-o, --out <run-dir>', 'run directory to write')
    .option('--db <path>', 'sample database: a JSON/TOML file, or a directory of <collection>.json files')
    .option('--seed <n>', 'seed of every random choice', '0')
    .option('--tasks <n>', 'how many tasks to compile', '50')
    .option('--llm', 'not wired yet for task writing (see `env synth --llm`)')
    .option('--no-progress', 'no progress bar')
    .action(async (tooldoc: string, options: SynthCommandOptions) => {
      await synthCommand(tooldoc, options, io);
    });
  program
    .command('verify')
    .description("replay every task's gold calls on a fresh environment and check the final digest")
    .argument('<run-dir>', 'a run directory written by `autoforge synth`')
    .action(async (dir: string) => {
      if (!(await verifyCommand(dir, io))) verifyFailed = true;
    });

  return program;
}

/**
 * Runs the CLI with arguments (without `node` and the script) and returns the exit code:
 * 0 success, 2 bad input or usage (a located message on stderr, no stack trace), 1 internal error.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    verifyFailed = false;
    await program.parseAsync([...argv], { from: 'user' });
    return verifyFailed ? EXIT_VERIFY_FAILED : EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit through here with code 0; usage errors are already printed.
      return error.exitCode === 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (error instanceof InvalidArgumentError) {
      io.stderr(`autoforge: ${error.message}\n`);
      return EXIT_BAD_INPUT;
    }
    if (error instanceof CliError) {
      io.stderr(`autoforge: ${error.message}\n`);
      for (const line of error.details) io.stderr(`  ${line}\n`);
      return EXIT_BAD_INPUT;
    }
    const message = error instanceof Error ? error.message : String(error);
    const code = isAutoForgeError(error) ? ` [${error.code}]` : '';
    io.stderr(`autoforge: internal error${code}: ${message}\n`);
    if (io.env.AUTOFORGE_DEBUG && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    else io.stderr('(set AUTOFORGE_DEBUG=1 for a stack trace, and please report it)\n');
    return EXIT_INTERNAL;
  }
}
