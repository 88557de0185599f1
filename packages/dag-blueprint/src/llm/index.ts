export type { RewriteIntentOptions, RewriteIntentResult } from './rewrite-intent.js';
export { checkRewrite, REWRITE_SYSTEM_PROMPT, requiredMentions, rewriteIntent } from './rewrite-intent.js';
