import { packageProject } from '@autoforge/presets/vitest';

export default packageProject('queue');
