import { packageConfig } from '@autoforge/presets/tsup';

export default packageConfig({
  entry: {
    index: 'src/index.ts',
    load: 'src/load.ts',
    'tau-bench': 'src/tau-bench/index.ts',
    tau2: 'src/tau2/index.ts',
    acebench: 'src/acebench/index.ts',
    vitabench: 'src/vitabench/index.ts',
    bfcl: 'src/bfcl/index.ts',
  },
});
