import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { isAutoForgeError } from '@autoforge/core';
import { parseCommand, TOOL_DOC_FORMATS } from './commands/parse.js';
import type { ParseCommandOptions } from './commands/parse.js';
import { CliError, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK } from './errors.js';
import type { CliIo } from './io.js';

/** The version printed by `autoforge --version`. */
export const VERSION = '0.1.0';

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

  return program;
}

/**
 * Runs the CLI with arguments (without `node` and the script) and returns the exit code:
 * 0 success, 2 bad input or usage (a located message on stderr, no stack trace), 1 internal error.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
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
