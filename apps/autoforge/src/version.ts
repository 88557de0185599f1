/** The version printed by `autoforge --version` and recorded in run directories. */
export const VERSION = '0.1.0';
