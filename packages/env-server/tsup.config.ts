import { packageConfig } from '@autoforge/presets/tsup';

export default packageConfig();
