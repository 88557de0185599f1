import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
// Only the program's shape loads here: each command's module (and the packages it uses: the
// runtime, the synthesizer, tfjs, fastify, the OpenAI client, BullMQ) is imported by its action,
// so `--help`, `--version` and every command load only what they use.
import type { EnvSynthCommandOptions } from './commands/env.js';
import type { ServeCommandOptions } from './commands/serve.js';
import type { RolloutCommandOptions } from './commands/rollout.js';
import type { AblateCommandOptions, TrainCommandOptions } from './commands/train.js';
import type { JudgeCommandOptions } from './commands/judge.js';
import type { BenchEvalCommandOptions, BenchReplayCommandOptions } from './commands/bench.js';
import type { SynthCommandOptions } from './commands/synth.js';
import type { ParseCommandOptions } from './commands/parse.js';
import type { WorkerCommandOptions } from './commands/worker.js';
import type { ExportCommandOptions } from './commands/export.js';
import type { ReportCommandOptions } from './commands/report.js';
import { AGENTS, ALGOS, BENCH_AGENTS, ERROR_KINDS, EXPORT_FORMATS, JUDGES, TOOL_DOC_FORMATS, USER_SURFACES, USERS } from './cli-options.js';
import { EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_VERIFY_FAILED } from './exit-codes.js';
import type { CliIo } from './io.js';

import { withModelOptions } from './model-options.js';
import { VERSION } from './version.js';

export { VERSION };

let verifyFailed = false;

/**
 * A command's module, imported when the command runs. The `autoforge:command` performance mark
 * says when that is (the end of start-up; `bench/startup.mjs` reads it).
 */
async function load<T>(module: Promise<T>): Promise<T> {
  const loaded = await module;
  performance.mark('autoforge:command');
  return loaded;
}

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
      const { parseCommand } = await load(import('./commands/parse.js'));
      await parseCommand(file, options, io);
    });

  const env = program.command('env').description('synthesize environments and call their tools');
  withModelOptions(env
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
    .option('--json', 'print the synthesis report as JSON instead of a summary'), { what: 'the environment writer (--llm)' })
    .action(async (tooldoc: string, options: EnvSynthCommandOptions) => {
      const { envSynthCommand } = await load(import('./commands/env.js'));
      await envSynthCommand(tooldoc, options, io);
    });
  env
    .command('call')
    .description('run one tool call on the seed state of an environment and print its output')
    .argument('<env>', 'EnvironmentSpec JSON file (from `autoforge env synth`)')
    .argument('<tool>', 'tool name')
    .argument('[args]', 'arguments as a JSON object', '{}')
    .option('--timeout-ms <ms>', 'wall-clock limit of a sandboxed call (the call ends as a timeout past it)', '1000')
    .option('--memory-bytes <n>', 'memory of the sandbox instance for tool code (a memory_limit observation past it)', String(64 * 1024 * 1024))
    .option('--max-state-bytes <n>', 'most bytes the state may grow past the seed (a state_limit observation beyond)', String(64 * 1024 * 1024))
    .option('--max-state-depth <n>', 'deepest nesting of the state (a state_limit observation beyond)', '64')
    .action(async (file: string, tool: string, args: string, options: { timeoutMs: string; memoryBytes?: string; maxStateBytes?: string; maxStateDepth?: string }) => {
      const { envCallCommand } = await load(import('./commands/env.js'));
      await envCallCommand(file, tool, args, io, options);
    });

  withModelOptions(program
    .command('synth')
    .description('tool doc → environment → dependency graph → walks → blueprints → verified tasks (a run directory)')
    .argument('<tooldoc>', 'tool description document')
    .requiredOption('-o, --out <run-dir>', 'run directory to write')
    .option('--db <path>', 'sample database: a JSON/TOML file, or a directory of <collection>.json files')
    .option('--user-tools <tooldoc>', "dual control: the user's own tools (a device's), which the agent must ask the user to use")
    .option('--user-db <path>', "with --user-tools: the user side's sample database (a device's state)")
    .option('--seed <n>', 'seed of every random choice', '0')
    .option('--tasks <n>', 'how many tasks to compile', '50')
    .option('--policy <file>', "the environment's policy (the agent's system prompt), written to the run directory as policy.md (default: a policy.md or wiki.md beside the tool doc)")
    .option('--workers <n>', 'worker threads compiling blueprints (0: the main thread; default: one per core, up to 4)')
    .option('--queue <url>', 'Redis URL (redis://host:port): synthesize and compile on `autoforge worker`s instead (the same files)')
    .option('--llm', 'let an LLM rewrite each intent with minimum information, kept only if every fact and criterion survives (OPENAI_BASE_URL, AUTOFORGE_MODEL)')
    .option('--cache <dir>', 'with --llm: on-disk response cache', '.autoforge-cache/llm')
    .option('--no-cache', 'with --llm: do not cache model responses')
    .option('--no-progress', 'no progress bar'), { what: 'the intent writer (--llm)' })
    .action(async (tooldoc: string, options: SynthCommandOptions) => {
      const { synthCommand } = await load(import('./commands/synth.js'));
      await synthCommand(tooldoc, options, io);
    });
  program
    .command('verify')
    .description("replay every task's gold calls on a fresh environment and check the final digest")
    .argument('<run-dir>', 'a run directory written by `autoforge synth`')
    .action(async (dir: string) => {
      const { verifyCommand } = await load(import('./commands/synth.js'));
      if (!(await verifyCommand(dir, io))) verifyFailed = true;
    });
  withModelOptions(program
    .command('serve')
    .description('serve a run directory over HTTP for trainers in any language (sessions with a simulated user, steps, reward, trajectory, verdict; OpenEnv /reset /step /mcp; OpenAPI at /openapi.json)')
    .argument('<run-dir>', 'a run directory written by `autoforge synth`')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0: any free port)', '8080')
    .option('--token <token>', 'require "Authorization: Bearer <token>" (default: env AUTOFORGE_SERVE_TOKEN; none: no auth)')
    .option('--max-sessions <n>', 'most sessions open at once (429 beyond)', '1024')
    .option('--idle-timeout-ms <ms>', 'close a session unused for this long', '300000')
    .option('--call-timeout-ms <ms>', 'longest wait for one step (504 beyond)', '10000')
    .option('--episode-timeout-ms <ms>', 'close an episode older than this', '3600000')
    .option('--tool-timeout-ms <ms>', 'wall-clock limit of one sandboxed tool call (a timeout observation past it)', '1000')
    .option('--tool-memory-bytes <n>', "memory of one environment's sandbox instance for tool code (a memory_limit observation past it)", String(64 * 1024 * 1024))
    .option('--sandbox-workers <n>', "most worker threads running one environment's sandboxed tools at once", '4')
    .option('--max-state-bytes <n>', 'most bytes a session\'s state may grow past its initial state (a state_limit observation beyond)', String(64 * 1024 * 1024))
    .option('--max-state-depth <n>', "deepest nesting of a session's state (a state_limit observation beyond)", '64')
    .option('--headers-timeout-ms <ms>', 'drop a connection whose request headers take longer (408)', '10000')
    .option('--request-timeout-ms <ms>', 'drop a connection whose whole request, body included, takes longer (408)', '30000')
    .option('--max-body-depth <n>', 'deepest nesting of a request body or /ws message (422 beyond)', '128')
    .option('--max-arguments-bytes <n>', "largest tool call's arguments in bytes (413 beyond)", String(1024 * 1024))
    .option('--max-arguments-depth <n>', "deepest nesting of a tool call's arguments (422 beyond)", '64')
    .option('--max-messages <n>', 'most messages one episode holds (422 beyond)', '1000')
    .option('--max-message-bytes <n>', 'largest message a client sends, in bytes (413 beyond)', String(256 * 1024))
    .option('--max-episode-bytes <n>', 'most bytes a client sends into one episode (422 beyond)', String(16 * 1024 * 1024))
    .option('--max-rss-bytes <n>', 'resident set size past which new sessions, resets and steps answer 503', String(4 * 1024 * 1024 * 1024))
    .option('--max-heap-bytes <n>', "V8 heap in use past which the same answer 503 (default: 90% of V8's heap limit)")
    .option('--log', 'log every request (JSON lines on stdout)')
    .option('--protocol <protocol>', 'routes to mount: native (/sessions), openenv (/reset, /step, /state, /schema, /metadata, /mcp) or both', 'both')
    .option('--user <kind>', 'simulated user of OpenEnv episodes whose /reset names none: scripted or llm (AUTOFORGE_MODEL)', 'scripted')
    .option('--user-error-rate <p>', 'with --user scripted: probability that an episode carries one injected user error', '0')
    .addOption(new Option('--user-surface <surface>', 'with --user scripted: varied (default: many wordings, loose reading) or plain (one wording per act)').choices([...USER_SURFACES]))
    .option('--error-kinds <list>', `kinds the scripted user may inject (comma-separated: ${ERROR_KINDS.join(',')})`), { what: 'the LLM user and judge', roles: ['user', 'judge'], check: true })
    .action(async (dir: string, options: ServeCommandOptions) => {
      const { serveCommand } = await load(import('./commands/serve.js'));
      await serveCommand(dir, options, io);
    });

  withModelOptions(program
    .command('rollout')
    .description('run episodes of an agent against a simulated user on every task of a run (trajectories.jsonl, resumable)')
    .argument('<run-dir>', 'a run directory written by `autoforge synth`')
    .addOption(new Option('--agent <agent>', 'the agent').choices([...AGENTS]).default('oracle'))
    .addOption(new Option('--user <user>', 'the simulated user').choices([...USERS]).default('scripted'))
    .option('--user-error-rate <p>', 'scripted user: share of episodes with one injected user error', '0')
    .option('--error-kinds <list>', `scripted user: comma-separated kinds to inject (${ERROR_KINDS.join(', ')})`)
    .addOption(new Option('--user-surface <surface>', 'scripted user: varied (default: many wordings, loose reading, volunteered facts) or plain (one wording per act; the default where earlier episodes of the file used it)').choices([...USER_SURFACES]))
    .option('--rollouts <G>', 'episodes per task', '1')
    .option('--concurrency <C>', 'episodes in flight at once', '8')
    .option('--seed <n>', 'seed of the users (and agents) of every episode', '0')
    .option('--max-turns <n>', 'agent turns per episode', '30')
    .option('--out <file>', 'trajectory file in the run directory', 'trajectories.jsonl')
    .option('--queue <url>', 'Redis URL (redis://host:port): run the episodes on `autoforge worker`s (the same file)')
    .option('--batch <n>', 'with --queue: episodes per job', '8')
    .option('--cache <dir>', 'LLM agent/user: on-disk response cache', '.autoforge-cache/llm')
    .option('--no-cache', 'LLM agent/user: do not cache model responses')
    .option('--no-progress', 'no progress bar'), { what: 'the openai agent (and the LLM user)', roles: ['user'], check: true })
    .action(async (dir: string, options: RolloutCommandOptions) => {
      const { rolloutCommand } = await load(import('./commands/rollout.js'));
      await rolloutCommand(dir, options, io);
    });

  withModelOptions(program
    .command('judge')
    .description('judge every trajectory of a run: did the simulated user spoil it? (verdicts.jsonl, the MEU mask)')
    .argument('<run-dir>', 'a run directory with trajectories.jsonl')
    .addOption(new Option('--judge <judge>', 'the judge').choices([...JUDGES]).default('rule'))
    .option('--concurrency <C>', 'trajectories judged at once', '8')
    .option('--trajectories <file>', 'trajectory file in the run directory', 'trajectories.jsonl')
    .option('--out <file>', 'verdict file in the run directory', 'verdicts.jsonl')
    .option('--queue <url>', 'Redis URL (redis://host:port): judge on `autoforge worker`s (the same file)')
    .option('--batch <n>', 'with --queue: trajectories per job', '16')
    .option('--cache <dir>', 'LLM judge: on-disk response cache', '.autoforge-cache/llm')
    .option('--no-cache', 'LLM judge: do not cache model responses')
    .option('--no-progress', 'no progress bar'), { what: 'the LLM judge (env AUTOFORGE_JUDGE_MODEL first)', check: true })
    .action(async (dir: string, options: JudgeCommandOptions) => {
      const { judgeCommand } = await load(import('./commands/judge.js'));
      await judgeCommand(dir, options, io);
    });

  withModelOptions(program
    .command('worker')
    .description('a long-running worker on the job queues in Redis (synthesis, task compilation, rollouts, judging) for `synth`, `rollout` and `judge --queue`; run any number, on any machines')
    .requiredOption('--redis <url>', 'Redis URL, e.g. redis://127.0.0.1:6379/0 (rediss:// for TLS)')
    .option('--concurrency <n>', 'jobs of each kind at once', '1')
    .option('--kinds <list>', 'comma-separated job kinds to take (synth-env, compile, rollout, judge; default: all)')
    .option('--prefix <prefix>', 'key prefix in Redis', 'autoforge')
    .option('--lock-duration-ms <ms>', "a job's lock: how long a killed worker's job waits before another worker takes it", '30000')
    .option('--stalled-interval-ms <ms>', 'how often to look for jobs of killed workers', '30000')
    .option('--shutdown-timeout-s <s>', 'on SIGTERM, how long to let active jobs finish before leaving them to other workers', '60')
    .option('--cache <dir>', 'LLM agent/user/judge: on-disk response cache', '.autoforge-cache/llm')
    .option('--no-cache', 'LLM agent/user/judge: do not cache model responses')
    .option('--log', 'log every job (stderr)'), { what: 'the openai agent, the LLM user and judge of the jobs', roles: ['user', 'judge'] })
    .action(async (options: WorkerCommandOptions) => {
      const { workerCommand } = await load(import('./commands/worker.js'));
      await workerCommand(options, io);
    });

  const trainingOptions = (command: Command): Command =>
    command
      .option('--iters <N>', 'training iterations', '20')
      .option('--rollouts <G>', 'episodes per train task per iteration (the group size)', '4')
      .option('--user-error-rate <p>', 'share of training episodes whose scripted user makes one error', '0.2')
      .option('--held-out <share>', 'share of each environment\'s tasks held out for evaluation', '0.25')
      .option('--lr <rate>', 'Adam learning rate', '0.03')
      .option('--concurrency <C>', 'episodes in flight at once', '16')
      .option('--max-turns <n>', 'agent turns per episode', '16')
      .option('--no-progress', 'no progress bar');
  trainingOptions(
    program
      .command('train')
      .description('train the offline reference policy: rollouts → judge → advantages → update, repeated (metrics.jsonl, advantages.jsonl)')
      .argument('<run-dir>', 'a run directory written by `autoforge synth`')
      .addOption(new Option('--algo <algo>', 'advantage estimator').choices([...ALGOS]).default('erpo'))
      .option('--no-judge', 'do not mask trajectories the judge blames on the simulated user')
      .option('--seed <n>', 'seed of the policy, the split and every episode', '0')
      .option('--eval-every <n>', 'held-out evaluation every n iterations (0: only before and after)', '0'),
  ).action(async (dir: string, options: TrainCommandOptions) => {
    const { trainCommand } = await load(import('./commands/train.js'));
    await trainCommand(dir, options, io);
  });
  trainingOptions(
    program
      .command('ablate')
      .description('ERPO vs GRPO, with and without the judge, over seeds and user-error rates (ablation/ablation.{json,md,svg})')
      .argument('<run-dir>', 'a run directory written by `autoforge synth`')
      .option('--seeds <n>', 'seeds per configuration', '5')
      .option('--error-rates <list>', 'comma-separated user-error rates (default: 0 and --user-error-rate)')
      .option('--out <dir>', 'output folder in the run directory', 'ablation'),
  ).action(async (dir: string, options: AblateCommandOptions) => {
    const { ablateCommand } = await load(import('./commands/train.js'));
    await ablateCommand(dir, options, io);
  });

  program
    .command('demo')
    .description('the whole pipeline offline on the example tool docs: synth, verify, rollouts, judge, ERPO training, ablation, report.html')
    .option('-o, --out <dir>', 'run directory (replaced if it exists)', 'runs/demo')
    .option('--no-progress', 'no progress bars')
    .action(async (options: { out: string; progress?: boolean }) => {
      const { demoCommand } = await load(import('./commands/pipeline.js'));
      await demoCommand(options, io);
    });
  program
    .command('run')
    .description('the whole pipeline on your own tool docs and options (a JSON config file; see the README)')
    .requiredOption('-c, --config <file>', 'pipeline config (JSON; see apps/autoforge/README.md)')
    .option('--force', 'replace the run directory if it exists')
    .option('--no-progress', 'no progress bars')
    .action(async (options: { config: string; progress?: boolean; force?: boolean }) => {
      const { runCommand } = await load(import('./commands/pipeline.js'));
      await runCommand(options, io);
    });

  const bench = program.command('bench').description('faithful ports of public agent benchmarks: list, replay gold actions, evaluate agents');
  bench
    .command('list')
    .description('list the benchmark domains (<bench>/<domain>)')
    .action(async () => {
      const { benchListCommand } = await load(import('./commands/bench.js'));
      benchListCommand(io);
    });
  withModelOptions(bench
    .command('replay')
    .description('replay every task\'s gold actions; one JSON line per task {task, final_digest, outputs, reward}')
    .argument('<bench/domain>', 'e.g. tau-bench/retail (see `autoforge bench list`)')
    .option('--split <split>', 'task split (default: the benchmark\'s first, test)')
    .option('--data <dir>', 'the benchmarks folder (default: env AUTOFORGE_BENCH_DATA)'), { what: 'the benchmark\'s LLM judge (tau2, VitaBench; env AUTOFORGE_JUDGE_MODEL first)' })
    .action(async (name: string, options: BenchReplayCommandOptions) => {
      const { benchReplayCommand } = await load(import('./commands/bench.js'));
      await benchReplayCommand(name, options, io);
    });
  withModelOptions(bench
    .command('eval')
    .description('run an agent on every task with the benchmark\'s user simulator and evaluator; print pass^1..pass^k')
    .argument('<bench/domain>', 'e.g. tau-bench/airline (see `autoforge bench list`)')
    .addOption(new Option('--agent <agent>', 'the agent').choices([...BENCH_AGENTS]).default('oracle'))
    .addOption(
      new Option('--user <user>', "the user: the benchmark's offline user (instruction: its pass^k is not the benchmark's), or its own LLM user-simulator prompt (llm)")
        .choices(['instruction', 'llm'])
        .default('instruction'),
    )
    .option('--k <k>', 'trials per task', '1')
    .requiredOption('-o, --out <dir>', 'where to write trajectories.jsonl, results.jsonl and summary.json')
    .option('--split <split>', 'task split (default: the benchmark\'s first, test)')
    .option('--data <dir>', 'the benchmarks folder (default: env AUTOFORGE_BENCH_DATA)')
    .option('--tasks <n>', 'only the first n tasks of the split')
    .option('--concurrency <C>', 'episodes in flight at once', '4')
    .option('--max-turns <n>', 'agent turns per episode', '30')
    .option('--cache <dir>', 'openai agent: on-disk response cache', '.autoforge-cache/llm')
    .option('--no-cache', 'openai agent: do not cache model responses')
    .option('--checkpoint <file>', 'reference agent: the policy.json written by `autoforge train` (default: untrained)'), { what: 'the openai agent (and the benchmark\'s LLM judge and user)', roles: ['judge', 'user'], check: true })
    .action(async (name: string, options: BenchEvalCommandOptions) => {
      const { benchEvalCommand } = await load(import('./commands/bench.js'));
      await benchEvalCommand(name, options, io);
    });

  program
    .command('export')
    .description("a run's tasks as a trainer's dataset (verl/SkyRL train.parquet + val.parquet and verl's YAML configs, TRL rows, task rows) or its trajectories as OpenAI fine-tuning lines")
    .argument('<run-dir>', 'a run directory written by `autoforge synth`')
    .addOption(new Option('--format <format>', 'dataset format').choices([...EXPORT_FORMATS]).makeOptionMandatory())
    .option('-o, --out <dir>', 'output folder (default <run-dir>/export/<format>)')
    .option('--seed <n>', 'seed of the train/val split and of every row\'s episode seed', '0')
    .option('--val <share>', "share of each environment's tasks in val (the split of `autoforge train --held-out` with the same seed)", '0.1')
    .option('--server-url <url>', 'where trainers reach `autoforge serve` (written into every row)', 'http://127.0.0.1:8080')
    .option('--trajectories <file>', 'openai-sft: trajectory file in the run directory', 'trajectories.jsonl')
    .option('--verdicts <file>', 'openai-sft: verdict file in the run directory (episodes the judge blames on the user are left out)', 'verdicts.jsonl')
    .option('--all', 'openai-sft: every episode, not only solved ones the judge did not mask')
    .addOption(new Option('--user-surface <surface>', "the scripted user whose opening each row holds: varied (default, as autoforge serve's) or plain (for a server run with --user-surface plain)").choices([...USER_SURFACES]))
    .action(async (dir: string, options: ExportCommandOptions) => {
      const { exportCommand } = await load(import('./commands/export.js'));
      await exportCommand(dir, options, io);
    });

  program
    .command('report')
    .description('write report.html: training curves, ablation, dependency graph, blueprints, task difficulty, trajectory viewer')
    .argument('<run-dir>', 'a run directory (needs tasks.jsonl; every other file is optional)')
    .option('-o, --out <file>', 'where to write the page (default <run-dir>/report.html)')
    .option('--title <text>', 'page title')
    .option('--max-trajectories <n>', 'trajectories embedded in the viewer', '200')
    .action(async (dir: string, options: ReportCommandOptions) => {
      const { reportCommand } = await load(import('./commands/report.js'));
      await reportCommand(dir, options, io);
    });

  return program;
}

/** Error codes of the packages that mean a bug or misuse of an API, not bad input. */
const INTERNAL_CODES = new Set(['E_INTERNAL', 'E_CLOSED', 'E_REENTRANT', 'E_FOREIGN_SNAPSHOT', 'E_INVALID_OPTIONS']);

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
    // Loaded here, not up front: the error classes bring @autoforge/core, which help and
    // version do not need (the command that threw has loaded them already).
    const [{ isAutoForgeError }, { CliError }] = await Promise.all([import('@autoforge/core'), import('./errors.js')]);
    if (error instanceof CliError) {
      io.stderr(`autoforge: ${error.message}\n`);
      for (const line of error.details) io.stderr(`  ${line}\n`);
      return EXIT_BAD_INPUT;
    }
    const message = error instanceof Error ? error.message : String(error);
    // A package's own error about what it was given (a spec whose source does not compile, a
    // task without gold calls) is bad input: exit 2 with its located message.
    if (isAutoForgeError(error) && !INTERNAL_CODES.has(error.code)) {
      io.stderr(`autoforge: ${message} [${error.code}]\n`);
      return EXIT_BAD_INPUT;
    }
    const code = isAutoForgeError(error) ? ` [${error.code}]` : '';
    io.stderr(`autoforge: internal error${code}: ${message}\n`);
    if (io.env.AUTOFORGE_DEBUG && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    else io.stderr('(set AUTOFORGE_DEBUG=1 for a stack trace, and please report it)\n');
    return EXIT_INTERNAL;
  }
}
