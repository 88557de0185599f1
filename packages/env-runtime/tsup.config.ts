import { packageConfig } from '@autoforge/presets/tsup';

export default packageConfig({ entry: { index: 'src/index.ts', 'sandbox-worker': 'src/sandbox-worker.ts' } });
