import { packageProject } from '@autoforge/presets/vitest';

export default packageProject('env-synth', { testTimeout: 60_000 });
