import type { DriverRuntime } from './driver.js';
import { recordsDriver } from './records.js';
import { ledgerDriver } from './ledger.js';
import { sessionDriver } from './session.js';
import { settingsDriver } from './settings.js';
import { standInDriver } from './stand-in.js';
import { messagingDriver } from './messaging.js';
import { postingDriver } from './posting.js';
import { knowledgeGraphDriver } from './knowledge-graph.js';
import { fileTreeDriver } from './file-tree.js';
import { ticketsDriver } from './tickets.js';
import { cartDriver } from './cart.js';
import { calculatorDriver } from './calculator.js';
import { scalarListDriver } from './scalar-list.js';
import { referenceDriver } from './reference.js';
import { valueDriver } from './value.js';
import { requestsDriver } from './requests.js';

/**
 * The drivers, one self-contained module each. Adding a family adds one line here and nothing
 * else in this package.
 */
export const DRIVER_LIST: readonly DriverRuntime[] = [standInDriver, recordsDriver, sessionDriver, ledgerDriver, settingsDriver, ticketsDriver, cartDriver, calculatorDriver, fileTreeDriver, messagingDriver, postingDriver, knowledgeGraphDriver, referenceDriver, scalarListDriver, valueDriver, requestsDriver];
