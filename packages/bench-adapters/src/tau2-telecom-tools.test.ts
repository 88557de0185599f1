import { describe, expect, it } from 'vitest';
import { createTau2TelecomAdapter } from './tau2-telecom-adapter.js';
import { runTau2TelecomFunction } from './tau2-telecom-tools.js';
import { BENCHMARKS } from './test-support.js';

const adapter = createTau2TelecomAdapter({ dataDir: BENCHMARKS });

async function johnsState() {
  const task = (await adapter.tasks())[0]!;
  return adapter.initialState(task);
}

describe('runTau2TelecomFunction (paths the gold replays do not take)', () => {
  it("keeps tau2's class-level VPN hazard within a session: after break_vpn, a new connect_vpn is poor too (10% speed)", async () => {
    const state = await johnsState();
    runTau2TelecomFunction(state, 'user', 'break_vpn', {});
    expect(runTau2TelecomFunction(state, 'user', 'check_vpn_status', {})).toBe(
      "VPN is ON and connected. Details: {'server_address': '192.168.1.1', 'protocol': 'OpenVPN', 'server_performance': <PerformanceLevel.POOR: 'poor'>}",
    );
    runTau2TelecomFunction(state, 'user', 'disconnect_vpn', {});
    runTau2TelecomFunction(state, 'user', 'connect_vpn', {});
    expect((state.user_db.device.vpn_details as { server_performance: string }).server_performance).toBe('poor');
    const fresh = await johnsState();
    runTau2TelecomFunction(fresh, 'user', 'connect_vpn', {});
    expect((fresh.user_db.device.vpn_details as { server_performance: string }).server_performance).toBe('excellent');
  });

  it('shows datetimes as str(datetime) and dict numbers as str(x), as to_json_str does', async () => {
    const state = await johnsState();
    expect(runTau2TelecomFunction(state, 'assistant', 'get_customer_by_id', { customer_id: 'C1001' })).toMatchObject({ created_at: '2025-01-15 10:30:00' });
    expect(state.db.customers[0]?.created_at).toBe('2025-01-15T10:30:00');
    expect(runTau2TelecomFunction(state, 'assistant', 'get_data_usage', { customer_id: 'C1001', line_id: 'L1002' })).toEqual({
      line_id: 'L1002',
      data_used_gb: '15.1',
      data_limit_gb: '15.0',
      data_refueling_gb: '0.0',
      cycle_end_date: '2025-02-28',
    });
  });

  it("raises tau2's errors for a line the customer does not own and for a function the side lacks", async () => {
    const state = await johnsState();
    expect(() => runTau2TelecomFunction(state, 'assistant', 'refuel_data', { customer_id: 'C1001', line_id: 'L1004', gb_amount: 1 })).toThrow('Line L1004 not found for customer C1001');
    expect(() => runTau2TelecomFunction(state, 'assistant', 'toggle_data', {})).toThrow('Function toggle_data not found in assistant tools');
  });

  it('syncs a payment: send_payment_request raises a request on the phone, make_payment marks the bill Paid', async () => {
    const state = await johnsState();
    runTau2TelecomFunction(state, 'assistant', 'send_payment_request', { customer_id: 'C1001', bill_id: 'B1002' });
    expect(runTau2TelecomFunction(state, 'user', 'check_payment_request', {})).toMatch(/^You have a payment request for bill B1002 of \d+\.\d+ USD\.$/);
    runTau2TelecomFunction(state, 'user', 'make_payment', {});
    expect(state.db.bills.find((b) => b.bill_id === 'B1002')?.status).toBe('Paid');
    expect(state.user_db.surroundings.payment_request).toBeNull();
  });
});
