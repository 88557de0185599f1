import { packageConfig } from '@autoforge/presets/tsup';

export default packageConfig({ entry: { index: 'src/index.ts', tfjs: 'src/tfjs/index.ts' } });
