import type { JsonValue } from '@autoforge/core';
import type { DriverTool } from './driver.js';
import { DriverParamsError, defineDriver } from './driver.js';

interface StandInParams {
  reason: string;
}

/**
 * The implementation of a tool that synthesis could not make work: every call is an error
 * observation naming the reason, so a stand-in never answers `ok` as if it had acted.
 */
export const standInDriver = defineDriver<StandInParams>({
  name: 'stand-in',
  version: 1,
  parse(params: JsonValue): StandInParams {
    if (typeof params !== 'object' || params === null || Array.isArray(params) || typeof params.reason !== 'string') {
      throw new DriverParamsError('/reason', 'a stand-in needs a reason (string)');
    }
    return { reason: params.reason };
  },
  compile(params: StandInParams, tool: DriverTool) {
    const message = `${tool.name} is not supported by this environment: ${params.reason}`;
    return () => {
      throw new Error(message);
    };
  },
});
