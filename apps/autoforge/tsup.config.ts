import { packageConfig } from '@autoforge/presets/tsup';

export default packageConfig({
  entry: { cli: 'src/cli.ts', index: 'src/index.ts' },
  banner: { js: '#!/usr/bin/env node' },
});
