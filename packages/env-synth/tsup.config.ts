import { packageConfig } from '@autoforge/presets/tsup';

export default packageConfig({ entry: { index: 'src/index.ts', llm: 'src/llm/index.ts', values: 'src/values/index.ts' } });
