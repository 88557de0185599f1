import { processIo } from './io.js';
import { runCli } from './program.js';

// Output piped into a reader that stops early (`| head`): a quiet exit, not a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2), processIo());
