import { packageProject } from '@autoforge/presets/vitest';

export default packageProject('package-checks', { testTimeout: 120_000 });
