import { describe, expect, it } from 'vitest';
import { accessFromName, entityFromToolName, idFromToolName, isIdName, normalizeName, singularize, stripQualifier } from '../src/naming.js';

describe('naming', () => {
  it('normalizes camelCase, kebab-case and PascalCase names to snake_case', () => {
    expect(normalizeName('orderId')).toBe('order_id');
    expect(normalizeName('Payment-Method-ID')).toBe('payment_method_id');
    expect(normalizeName('HTTPStatus')).toBe('http_status');
  });

  it('singularizes the last word of a noun phrase', () => {
    expect(singularize('orders')).toBe('order');
    expect(singularize('payment_methods')).toBe('payment_method');
    expect(singularize('categories')).toBe('category');
    expect(singularize('addresses')).toBe('address');
    expect(singularize('status')).toBe('status');
    expect(singularize('details')).toBe('details');
    expect(singularize('skus')).toBe('sku');
    expect(singularize('bonus')).toBe('bonus');
  });

  it('knows identifiers from facts a person can say', () => {
    expect(isIdName('order_id')).toBe(true);
    expect(isIdName('item_ids')).toBe(true);
    expect(isIdName('id')).toBe(true);
    expect(isIdName('flight_number')).toBe(false);
    expect(isIdName('zip')).toBe(false);
    expect(isIdName('petId')).toBe(true);
    expect(isIdName('api_key')).toBe(false);
  });

  it('reads the id a find tool returns from its name', () => {
    expect(idFromToolName('find_member_id_by_phone')).toBe('member_id');
    expect(idFromToolName('find_member_id_by_name_city')).toBe('member_id');
    expect(idFromToolName('get_payment_method_ids')).toBe('payment_method_id');
    expect(idFromToolName('getOrderId')).toBe('order_id');
    expect(idFromToolName('get_member_details')).toBeUndefined();
  });

  it('reads the entity a tool returns from its name', () => {
    expect(entityFromToolName('get_member_details')).toBe('member');
    expect(entityFromToolName('list_orders')).toBe('order');
    expect(entityFromToolName('get_partner_room_info')).toBe('room');
    expect(entityFromToolName('find_member_id_by_phone')).toBe('member');
    expect(entityFromToolName('get_issue_comments')).toBe('comment');
    expect(entityFromToolName('room_search_suggest')).toBe('room');
  });

  it('drops one qualifier or verb', () => {
    expect(stripQualifier('new_item_ids')).toBe('item_ids');
    expect(stripQualifier('exchange_payment_method_id')).toBe('payment_method_id');
    expect(stripQualifier('item_ids')).toBeUndefined();
    expect(stripQualifier('new')).toBeUndefined();
    expect(stripQualifier('issue_id')).toBeUndefined();
  });

  it('classifies tools by the first verb in their name', () => {
    expect(accessFromName('get_invoice_details')).toBe('read');
    expect(accessFromName('cancel_open_booking')).toBe('write');
    expect(accessFromName('shop_cancel_booking')).toBe('write');
    expect(accessFromName('room_search_suggest')).toBe('read');
    expect(accessFromName('rm')).toBe('write');
    expect(accessFromName('frobnicate_widget')).toBeUndefined();
  });

  it('reads a hand-over to a person as a read, although transfer is otherwise a write (core rule)', () => {
    expect(accessFromName('escalate_to_human_staff')).toBe('read');
    expect(accessFromName('transfer_funds')).toBe('write');
  });
});
