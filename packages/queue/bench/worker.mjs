// A bench worker process: the queue's processors plus the slow oracle agent. Exits on SIGTERM.
import { createProcessors, createQueueWorker } from '../dist/index.js';
import { slowOracle } from './slow-agent.mjs';

const [redis, concurrency, prefix] = process.argv.slice(2);
const processors = createProcessors({
  agents: { 'slow-oracle': (episode, options) => slowOracle(episode.blueprint, episode.task, options.ms) },
});
const worker = await createQueueWorker({ redis, processors, kinds: ['rollout'], concurrency: Number(concurrency), prefix });
process.stdout.write('ready\n');
process.once('SIGTERM', () => void worker.close().then(() => process.exit(0)));
