import { packageProject } from '@autoforge/presets/vitest';

export default packageProject('autoforge', { testTimeout: 60_000 });
