import { describe, expect, it } from 'vitest';
import { isHandOff, nameVerb, toolAccess, verbClassOf } from './tool-access.js';
import type { ToolHints } from './tool.js';

const tool = (name: string, description = '', hints?: ToolHints) => ({ name, description, ...(hints ? { hints } : {}) });

describe('toolAccess', () => {
  it('lets declared hints win over the verb of the name', () => {
    expect(toolAccess(tool('open_nodes', '', { readOnly: true }))).toMatchObject({ access: 'read', source: 'hint' });
    expect(toolAccess(tool('get_or_create', '', { readOnly: false }))).toMatchObject({ access: 'write', source: 'hint' });
    expect(toolAccess(tool('search_index', '', { destructive: true }))).toMatchObject({ access: 'write', destructive: true });
  });

  it('reads a readOnly hint as read even when destructiveHint is also set (MCP: destructive only counts for writes)', () => {
    expect(toolAccess(tool('purge', '', { readOnly: true, destructive: true }))).toMatchObject({ access: 'read', destructive: false });
  });

  it('reads tool types: write writes; read, think and generic do not', () => {
    expect(toolAccess(tool('lookup_x', '', { toolType: 'write' })).access).toBe('write');
    expect(toolAccess(tool('update_x', '', { toolType: 'think', readOnly: true })).access).toBe('read');
    expect(toolAccess(tool('calculate', '', { toolType: 'generic' })).access).toBe('read');
  });

  it('says the HTTP method decided when the hints came from one', () => {
    expect(toolAccess(tool('findPets', '', { httpMethod: 'get', readOnly: true }))).toMatchObject({ access: 'read', source: 'method' });
    expect(toolAccess(tool('deletePet', '', { httpMethod: 'delete', readOnly: false, destructive: true }))).toMatchObject({ access: 'write', source: 'method', destructive: true });
  });

  it('gives a POST to its name first and takes it as a write only when nothing else speaks', () => {
    expect(toolAccess(tool('searchInventory', '', { httpMethod: 'post' }))).toMatchObject({ access: 'read', source: 'name' });
    expect(toolAccess(tool('pets_v2', '', { httpMethod: 'post' }))).toMatchObject({ access: 'write', source: 'method' });
  });

  it('uses the first verb of the name, anywhere in it', () => {
    expect(toolAccess(tool('cancel_pending_order'))).toMatchObject({ access: 'write', source: 'name', verb: 'cancel', verbClass: 'transition' });
    expect(toolAccess(tool('archival_memory_key_search'))).toMatchObject({ access: 'read', verb: 'search' });
    expect(toolAccess(tool('message_get_login_status'))).toMatchObject({ access: 'read', verb: 'get' });
    expect(toolAccess(tool('displayCarStatus'))).toMatchObject({ access: 'read', verb: 'display' });
    expect(toolAccess(tool('turn_on_lights'))).toMatchObject({ access: 'write', verb: 'turnon', verbClass: 'enable' });
    expect(toolAccess(tool('remove_stock_from_watchlist'))).toMatchObject({ access: 'write', destructive: true });
    expect(toolAccess(tool('mkdir'))).toMatchObject({ access: 'write', verbClass: 'create' });
    expect(toolAccess(tool('ls'))).toMatchObject({ access: 'read' });
  });

  it('takes a read joined to a write by and/then/or as a write, named by the write verb', () => {
    expect(toolAccess(tool('verifyStockAndThenReserveSeat'))).toMatchObject({ access: 'write', verb: 'reserve', verbClass: 'create' });
    expect(toolAccess(tool('check_limits_or_initiate_refund'))).toMatchObject({ access: 'write', verb: 'initiate' });
    expect(toolAccess(tool('get_and_show_report'))).toMatchObject({ access: 'read', verb: 'get' });
    expect(toolAccess(tool('get_refund_status'))).toMatchObject({ access: 'read' });
  });

  it('takes a hand-over to a person as a read, although transferring money writes', () => {
    expect(toolAccess(tool('transfer_to_human_agents', 'Transfer the user to a human agent.'))).toMatchObject({ access: 'read', verbClass: 'noop' });
    expect(toolAccess(tool('transfer_funds', 'Move money between two accounts.'))).toMatchObject({ access: 'write', verb: 'transfer' });
  });

  it('falls back to the verb that opens the description, conjugated', () => {
    expect(toolAccess(tool('echo', 'Writes content to a file.'))).toMatchObject({ access: 'write', source: 'description', verb: 'write' });
    expect(toolAccess(tool('mean', 'Returns the mean of a list of numbers.'))).toMatchObject({ access: 'read', source: 'description' });
    expect(toolAccess(tool('entities', 'Deletes entities and their relations.'))).toMatchObject({ access: 'write', destructive: true });
    expect(toolAccess(tool('tee', 'This tool belongs to the shell toolkit. Tool description: Write content to a file.'))).toMatchObject({ access: 'write', verb: 'write' });
  });

  it('says unknown when no signal speaks', () => {
    expect(toolAccess(tool('foo_bar', 'A thing.'))).toEqual({ access: 'unknown', source: 'none' });
  });
});

describe('nameVerb / verbClassOf', () => {
  it('joins phrasal verbs and reports the verb position', () => {
    expect(nameVerb('user_log_in')).toMatchObject({ verb: 'login', verbClass: 'enable', index: 1 });
    expect(nameVerb('order_details')).toBeUndefined();
    expect(verbClassOf('refund')).toBe('transition');
    expect(verbClassOf('order')).toBeUndefined();
  });
});

describe('isHandOff', () => {
  it('needs both a hand-over word and a person', () => {
    expect(isHandOff({ name: 'escalate_to_supervisor', description: '' })).toBe(true);
    expect(isHandOff({ name: 'transfer_balance', description: 'Transfer money to another account.' })).toBe(false);
  });
});
