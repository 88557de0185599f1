import type { ToolDoc, ToolDocFormat, ToolGroup, ToolSpec } from '@autoforge/core';
import type { IssueList } from './issue.js';

/** What every format reader gets. */
export interface ReadContext {
  issues: IssueList;
  /** The format being read (detected or forced). */
  format: ToolDocFormat;
  /** `options.sample`: readers that know samples use it to read only that one. */
  sample: string | undefined;
  /** `pointer (line N)` for messages that name other places. */
  describe: (pointer: string) => string;
}

/** What a format reader returns. */
export interface ReadOutput {
  tools: ToolSpec[];
  groups?: ToolGroup[];
  info?: NonNullable<ToolDoc['info']>;
  /** True when the reader already applied `sample` (the tools are that sample's). */
  sampleApplied?: boolean;
}
