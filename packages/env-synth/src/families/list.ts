import type { Family } from './family.js';
import { fileTreeFamily } from './file-tree.js';
import { messagingFamily } from './messaging.js';
import { postingFamily } from './posting.js';
import { knowledgeGraphFamily } from './knowledge-graph.js';
import { ledgerFamily } from './ledger.js';
import { sessionFamily } from './session.js';
import { settingsFamily } from './settings.js';
import { ticketsFamily } from './tickets.js';
import { calculatorFamily } from './calculator.js';
import { cartFamily } from './cart.js';
import { referenceFamily } from './reference.js';
import { scalarListFamily } from './scalar-list.js';
import { valueFamily } from './value.js';

/**
 * The behaviour families, in the order they are offered the tools: a family claims from what the
 * earlier ones left; whatever no family claims goes to keyed records (the default). Adding a
 * family adds one line here and nothing else.
 */
export const FAMILIES: readonly Family[] = [fileTreeFamily, messagingFamily, postingFamily, knowledgeGraphFamily, ticketsFamily, cartFamily, calculatorFamily, sessionFamily, ledgerFamily, scalarListFamily, settingsFamily, valueFamily, referenceFamily];
