import type { DriverRuntime } from './driver.js';
import { standInDriver } from './stand-in.js';

/**
 * The drivers, one self-contained module each. Adding a family adds one line here and nothing
 * else in this package.
 */
export const DRIVER_LIST: readonly DriverRuntime[] = [standInDriver];
