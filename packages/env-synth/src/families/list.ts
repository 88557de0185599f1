import type { Family } from './family.js';

/**
 * The behaviour families, in the order they are offered the tools: a family claims from what the
 * earlier ones left; whatever no family claims goes to keyed records (the default). Adding a
 * family adds one line here and nothing else.
 */
export const FAMILIES: readonly Family[] = [];
