// Output piped into a reader that stops early (`| head`): a quiet exit, not a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The version alone needs no command parser: print it as commander would.
  const { VERSION } = await import('./version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const [{ processIo }, { runCli }] = await Promise.all([import('./io.js'), import('./program.js')]);
  process.exitCode = await runCli(args, processIo());
}
