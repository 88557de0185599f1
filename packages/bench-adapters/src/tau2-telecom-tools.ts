import type { JsonObject, JsonValue } from '@autoforge/core';
import type { NativeTool, ToolContext } from '@autoforge/env-runtime';
import { pyFloatRepr, pyRound } from './python-number.js';
import { pyStrListRepr, pyStrRepr } from './python-repr.js';

// Ports of tau2-bench's telecom domain (sierra-research/tau2-bench, src/tau2/domains/telecom/:
// tools.py — the agent's TelecomTools —, user_tools.py — the customer's phone, TelecomUserTools —,
// data_model.py, user_data_model.py, and environment.py's `sync_tools`). Both states live in one
// environment state: `db` (the agent's TelecomDB) and `user_db` (the phone and its surroundings),
// as `model_dump(mode='json')` writes them, plus `tau2_process`, the one piece of tau2 state that
// lives on a class (see `break_vpn`). Every tool call ends with tau2's `sync_tools`, as
// `Environment.get_response` does. tau2 raises ValueError("…"); the observation is "Error: …",
// which a thrown Error gives here.

/** A JSON object as a tool edits it (mutable, fields typed by the tau2 model). */
type Rec = { [key: string]: JsonValue };

/** The telecom environment state: the agent DB, the user DB, and tau2's class-level VPN state. */
export interface Tau2TelecomState {
  db: { plans: Rec[]; customers: Rec[]; lines: Rec[]; bills: Rec[]; devices: Rec[] };
  user_db: { device: Rec; surroundings: Rec };
  /**
   * `TelecomUserTools.default_vpn_details` is a class attribute that `connect_vpn` shares with the
   * device and `break_vpn` degrades: after a `break_vpn`, every later `connect_vpn` connects a poor
   * VPN. One session here is one fresh Python process.
   */
  tau2_process: { default_vpn_performance: string; device_vpn_is_default: boolean };
}

/** Where a function runs: tau2's `env_type` / `requestor`. */
export type Tau2TelecomSide = 'assistant' | 'user';

/** What a telecom function needs besides the state: new bill ids (tau2 uses `uuid4`). */
export interface Tau2TelecomContext {
  newBillId(): string;
}

const fail = (message: string): never => {
  throw new Error(message);
};

// tau2's `get_today()`: 2025-02-25.
const TODAY = '2025-02-25';

/** ISO date arithmetic on `YYYY-MM-DD` (UTC, no clock). */
function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
const firstOfMonth = (iso: string): string => `${iso.slice(0, 8)}01`;

const py = (x: JsonValue | undefined): string => pyFloatRepr(x as number);
const fmt2 = (x: number): string => pyRound(x, 2).toFixed(2);

// ---------------------------------------------------------------------------------------------
// Agent DB (TelecomTools)

function customerById(s: Tau2TelecomState, id: string): Rec {
  return s.db.customers.find((c) => c.customer_id === id) ?? fail(`Customer with ID ${id} not found`);
}
const lineById = (s: Tau2TelecomState, id: string): Rec => s.db.lines.find((l) => l.line_id === id) ?? fail(`Line with ID ${id} not found`);
const lineByPhone = (s: Tau2TelecomState, phone: string): Rec =>
  s.db.lines.find((l) => l.phone_number === phone) ?? fail(`Line with phone number ${phone} not found`);
const planById = (s: Tau2TelecomState, id: string): Rec => s.db.plans.find((p) => p.plan_id === id) ?? fail(`Plan with ID ${id} not found`);
const deviceById = (s: Tau2TelecomState, id: string): Rec =>
  s.db.devices.find((d) => d.device_id === id) ?? fail(`Device with ID ${id} not found`);
const billById = (s: Tau2TelecomState, id: string): Rec => s.db.bills.find((b) => b.bill_id === id) ?? fail(`Bill with ID ${id} not found`);

function customerByPhone(s: Tau2TelecomState, phone: string): Rec {
  for (const customer of s.db.customers) {
    if (customer.phone_number === phone) return customer;
    for (const lineId of customer.line_ids as string[]) {
      if (lineById(s, lineId).phone_number === phone) return customer;
    }
  }
  return fail(`Customer with phone number ${phone} not found`);
}

function targetLine(s: Tau2TelecomState, customerId: string, lineId: string): Rec {
  const customer = customerById(s, customerId);
  if (!(customer.line_ids as string[]).includes(lineId)) fail(`Line ${lineId} not found for customer ${customerId}`);
  return lineById(s, lineId);
}

const billsAwaitingPayment = (s: Tau2TelecomState, customer: Rec): Rec[] =>
  (customer.bill_ids as string[]).map((id) => billById(s, id)).filter((b) => b.status === 'Awaiting Payment');

// Datetime fields (the rest of the dates are dates): `json.dumps(model_dump(), default=str)`
// writes them with a space, where the state (mode='json') has a `T`.
const DATETIME_FIELDS: Record<string, readonly string[]> = {
  customer: ['created_at'],
  device: ['activation_date', 'last_esim_transfer_date'],
};

/** A record as tau2's `to_json_str` shows a pydantic model: `model_dump()`, datetimes through `str`. */
function modelOut(record: Rec, kind: string): Rec {
  const out: Rec = structuredClone(record);
  for (const field of DATETIME_FIELDS[kind] ?? []) {
    const v = out[field];
    if (typeof v === 'string') out[field] = v.replace('T', ' ');
  }
  return out;
}

function applyOneTimeCharge(s: Tau2TelecomState, ctx: Tau2TelecomContext, customerId: string, amount: number, description: string): void {
  const customer = customerById(s, customerId);
  let draft = (customer.bill_ids as string[]).map((id) => billById(s, id)).find((b) => b.status === 'Draft');
  if (draft === undefined) {
    const nextMonth = firstOfMonth(addDays(firstOfMonth(TODAY), 32));
    const monthAfter = firstOfMonth(addDays(nextMonth, 32));
    const id = ctx.newBillId();
    draft = {
      bill_id: id,
      customer_id: customerId,
      period_start: nextMonth,
      period_end: addDays(monthAfter, -1),
      issue_date: nextMonth,
      total_due: 0,
      due_date: addDays(nextMonth, 14),
      line_items: [],
      status: 'Draft',
    };
    s.db.bills.push(draft);
    (customer.bill_ids as string[]).push(id);
  }
  (draft.line_items as Rec[]).push({ description, amount, date: TODAY, item_type: amount < 0 ? 'Credit' : 'Charge' });
  draft.total_due = (draft.total_due as number) + amount;
}

type Fn = (s: Tau2TelecomState, args: Rec, ctx: Tau2TelecomContext) => JsonValue;
const str = (args: Rec, key: string): string => args[key] as string;

/** The agent's functions: its 13 tools, then the task set-up functions and assertions tau2 calls by name. */
const AGENT_FUNCTIONS: Record<string, Fn> = {
  get_customer_by_phone: (s, a) => modelOut(customerByPhone(s, str(a, 'phone_number')), 'customer'),
  get_customer_by_id: (s, a) => modelOut(customerById(s, str(a, 'customer_id')), 'customer'),
  get_customer_by_name: (s, a) =>
    s.db.customers
      .filter((c) => (c.full_name as string).toLowerCase() === str(a, 'full_name').toLowerCase() && c.date_of_birth === a.dob)
      .map((c) => modelOut(c, 'customer')),
  get_details_by_id: (s, a) => {
    const id = str(a, 'id');
    if (id.startsWith('L')) return modelOut(lineById(s, id), 'line');
    if (id.startsWith('D')) return modelOut(deviceById(s, id), 'device');
    if (id.startsWith('B')) return modelOut(billById(s, id), 'bill');
    if (id.startsWith('C')) return modelOut(customerById(s, id), 'customer');
    if (id.startsWith('P')) return modelOut(planById(s, id), 'plan');
    return fail(`Unknown ID format or type: ${id}`);
  },
  suspend_line: (s, a) => {
    const line = targetLine(s, str(a, 'customer_id'), str(a, 'line_id'));
    if (line.status !== 'Active') fail('Line must be active to suspend');
    line.status = 'Suspended';
    line.suspension_start_date = TODAY;
    return { message: 'Line suspended successfully. $5/month holding fee will apply.', line: modelOut(line, 'line') };
  },
  resume_line: (s, a) => {
    const line = targetLine(s, str(a, 'customer_id'), str(a, 'line_id'));
    if (line.status !== 'Suspended' && line.status !== 'Pending Activation') fail('Line must be suspended to resume');
    line.status = 'Active';
    line.suspension_start_date = null;
    return { message: 'Line resumed successfully', line: modelOut(line, 'line') };
  },
  get_bills_for_customer: (s, a) => {
    const customer = customerById(s, str(a, 'customer_id'));
    const bills = (customer.bill_ids as string[]).map((id) => billById(s, id));
    // Python's sorted(reverse=True) is stable: equal issue dates keep their order.
    const sorted = bills.map((b, i) => ({ b, i })).sort((x, y) => (x.b.issue_date === y.b.issue_date ? x.i - y.i : (x.b.issue_date as string) < (y.b.issue_date as string) ? 1 : -1));
    const limit = (a.limit as number | undefined) ?? 12;
    return sorted.slice(0, Math.max(0, limit)).map(({ b }) => modelOut(b, 'bill'));
  },
  send_payment_request: (s, a) => {
    const customer = customerById(s, str(a, 'customer_id'));
    if (billsAwaitingPayment(s, customer).length !== 0) fail('A bill is already awaiting payment for this customer');
    if (!(customer.bill_ids as string[]).includes(str(a, 'bill_id'))) fail(`Bill ${str(a, 'bill_id')} not found for customer ${str(a, 'customer_id')}`);
    const bill = billById(s, str(a, 'bill_id'));
    bill.status = 'Awaiting Payment';
    return `Payment request sent to the customer for bill ${bill.bill_id as string}`;
  },
  get_data_usage: (s, a) => {
    const line = targetLine(s, str(a, 'customer_id'), str(a, 'line_id'));
    const plan = planById(s, line.plan_id as string);
    // to_json_str turns every number of a plain dict into str(x).
    return {
      line_id: str(a, 'line_id'),
      data_used_gb: py(line.data_used_gb),
      data_limit_gb: py(plan.data_limit_gb),
      data_refueling_gb: py(line.data_refueling_gb),
      cycle_end_date: addDays(firstOfMonth(addDays(firstOfMonth(TODAY), 32)), -1),
    };
  },
  enable_roaming: (s, a) => {
    const line = targetLine(s, str(a, 'customer_id'), str(a, 'line_id'));
    if (line.roaming_enabled === true) return 'Roaming was already enabled';
    line.roaming_enabled = true;
    return 'Roaming enabled successfully';
  },
  disable_roaming: (s, a) => {
    const line = targetLine(s, str(a, 'customer_id'), str(a, 'line_id'));
    if (line.roaming_enabled !== true) return 'Roaming was already disabled';
    line.roaming_enabled = false;
    return 'Roaming disabled successfully';
  },
  transfer_to_human_agents: () => 'Transfer successful',
  refuel_data: (s, a, ctx) => {
    const line = targetLine(s, str(a, 'customer_id'), str(a, 'line_id'));
    const gb = a.gb_amount as number;
    if (gb <= 0) fail('Refuel amount must be positive');
    const plan = planById(s, line.plan_id as string);
    const price = plan.data_refueling_price_per_gb as number;
    const charge = gb * price;
    line.data_refueling_gb = (line.data_refueling_gb as number) + gb;
    applyOneTimeCharge(s, ctx, str(a, 'customer_id'), charge, `Data refueling: ${py(gb)} GB at $${py(price)}/GB`);
    return {
      message: `Successfully added ${py(gb)} GB of data for line ${str(a, 'line_id')} for $${fmt2(charge)}`,
      new_data_refueling_gb: py(line.data_refueling_gb),
      charge: py(charge),
    };
  },
  // Not tools: what tasks' initial states and assertions call.
  get_available_plan_ids: (s) => s.db.plans.map((p) => p.plan_id as string),
  set_data_usage: (s, a) => {
    const line = targetLine(s, str(a, 'customer_id'), str(a, 'line_id'));
    line.data_used_gb = a.data_used_gb as number;
    return `Data usage set to ${py(a.data_used_gb)} GB for line ${str(a, 'line_id')}`;
  },
  suspend_line_for_overdue_bill: (s, a) => {
    const line = lineById(s, str(a, 'line_id'));
    if (line.status !== 'Active') fail('Line must be active to suspend for unpaid bill');
    const plan = planById(s, line.plan_id as string);
    const amount = plan.price_per_month as number;
    if (amount <= 0) fail('Amount must be positive for overdue bill');
    const customer = customerById(s, str(a, 'customer_id'));
    if ((customer.bill_ids as string[]).some((id) => billById(s, id).status === 'Overdue')) fail('Customer already has an overdue bill');
    const lastOfLastMonth = addDays(firstOfMonth(TODAY), -1);
    const firstOfLastMonth = firstOfMonth(lastOfLastMonth);
    const newBillId = str(a, 'new_bill_id');
    s.db.bills.push({
      bill_id: newBillId,
      customer_id: str(a, 'customer_id'),
      period_start: firstOfLastMonth,
      period_end: lastOfLastMonth,
      issue_date: firstOfLastMonth,
      total_due: 0 + amount,
      due_date: addDays(firstOfLastMonth, 14),
      line_items: [{ description: `Charge for line ${line.line_id as string}`, amount, date: TODAY, item_type: amount > 0 ? 'Charge' : 'Credit' }],
      status: 'Overdue',
    });
    (customer.bill_ids as string[]).push(newBillId);
    line.status = 'Suspended';
    line.suspension_start_date = TODAY;
    if (a.contract_ended === true) line.contract_end_date = lastOfLastMonth;
    return `Line ${str(a, 'line_id')} suspended for unpaid bill ${newBillId}. Contract ended: ${a.contract_ended === true ? 'True' : 'False'}`;
  },
  assert_data_refueling_amount: (s, a) =>
    Math.abs((targetLine(s, str(a, 'customer_id'), str(a, 'line_id')).data_refueling_gb as number) - (a.expected_amount as number)) < 1e-6,
  assert_line_status: (s, a) => targetLine(s, str(a, 'customer_id'), str(a, 'line_id')).status === a.expected_status,
  assert_overdue_bill_exists: (s, a) => {
    const customer = customerById(s, str(a, 'customer_id'));
    const id = str(a, 'overdue_bill_id');
    if (!(customer.bill_ids as string[]).includes(id)) fail(`Overdue bill ${id} not found`);
    if (billById(s, id).status !== 'Overdue') fail(`Overdue bill ${id} is not overdue`);
    return true;
  },
  assert_no_overdue_bill: (s, a) => {
    const bill = s.db.bills.find((b) => b.bill_id === a.overdue_bill_id);
    return bill === undefined || bill.status === 'Paid';
  },
};

// ---------------------------------------------------------------------------------------------
// User DB (TelecomUserTools)

const dev = (s: Tau2TelecomState): Rec => s.user_db.device;
const sur = (s: Tau2TelecomState): Rec => s.user_db.surroundings;
const apn = (s: Tau2TelecomState): Rec => dev(s).active_apn_settings as Rec;

const SIGNAL_BAR: Record<string, string> = {
  none: '\u{1F4F5} No Signal',
  poor: '\u{1F4F6}\u00B9 Poor',
  fair: '\u{1F4F6}\u00B2 Fair',
  good: '\u{1F4F6}\u00B3 Good',
  excellent: '\u{1F4F6}\u2074 Excellent',
};

function statusBar(s: Tau2TelecomState): string {
  const d = dev(s);
  const parts: string[] = [];
  if (d.airplane_mode === true) {
    parts.push('\u2708\uFE0F Airplane Mode');
  } else {
    parts.push(SIGNAL_BAR[d.network_signal_strength as string] ?? SIGNAL_BAR.none!);
    if (d.network_technology_connected !== 'none') parts.push(d.network_technology_connected as string);
    if (d.data_enabled === true && d.network_technology_connected !== 'none') {
      parts.push('\u{1F4F1} Data Enabled');
      if (d.data_saver_mode === true) parts.push('\u{1F53D} Data Saver');
    } else {
      parts.push('\u{1F4F5} Data Disabled');
    }
  }
  if (d.wifi_enabled === true && d.wifi_connected === true) parts.push(d.wifi_ssid ? `\u{1F4E1} Connected to ${d.wifi_ssid as string}` : '\u{1F4E1} Enabled');
  if (d.vpn_connected === true) parts.push('\u{1F512} VPN Connected');
  parts.push(`\u{1F50B} ${d.battery_level as number}%`);
  return parts.join(' | ');
}
const withBar = (s: Tau2TelecomState, text: string): string => `${text}\nStatus Bar: ${statusBar(s)}`;

const simStatus = (s: Tau2TelecomState): string => (dev(s).sim_card_missing === true ? 'missing' : (dev(s).sim_card_status as string));

const PREFERRED_TECH: Record<string, string> = { '4g_only': '4G', '3g_only': '3G', '2g_only': '2G' };

function networkSearch(s: Tau2TelecomState): void {
  const d = dev(s);
  const signals = sur(s).signal_strength as Rec;
  const offline = (): void => {
    d.network_connection_status = 'no_service';
    d.network_technology_connected = 'none';
    d.network_signal_strength = 'none';
  };
  if (simStatus(s) === 'active') {
    d.network_connection_status = 'connected';
    const pref = d.network_mode_preference as string;
    let tech = PREFERRED_TECH[pref] ?? '4G';
    if (pref === '4g_5g_preferred') tech = (signals['5G'] ?? 'none') === 'none' ? '4G' : '5G';
    d.network_technology_connected = tech;
    d.network_signal_strength = signals[tech] ?? 'none';
  } else {
    offline();
  }
  if (d.airplane_mode === true) offline();
  if (apn(s).apn_name === 'broken') offline();
  if (sur(s).line_active !== true) offline();
}

function mobileDataWorking(s: Tau2TelecomState): boolean {
  const d = dev(s);
  if (d.airplane_mode === true || d.network_signal_strength === 'none') return false;
  if (d.network_connection_status === 'no_service') return false;
  if (sur(s).is_abroad === true && (d.roaming_enabled !== true || sur(s).roaming_allowed !== true)) return false;
  if (d.data_enabled !== true) return false;
  if (sur(s).mobile_data_usage_exceeded === true) return false;
  return true;
}

const TECH_SPEED: Record<string, [number, number]> = { '2G': [0.1, 0.4], '3G': [1.0, 5.0], '4G': [10.0, 100.0], '5G': [50.0, 500.0], none: [0, 0] };
const SIGNAL_FACTOR: Record<string, number> = { poor: 0.2, fair: 0.5, good: 0.8, excellent: 1.0, none: 0.0 };

function speedTest(s: Tau2TelecomState): [number | null, string] {
  if (!mobileDataWorking(s)) return [null, 'No Connection'];
  const d = dev(s);
  let factor = d.vpn_connected === true && d.vpn_details && (d.vpn_details as Rec).server_performance === 'poor' ? 0.1 : 1.0;
  if (d.data_saver_mode === true) factor *= 0.2;
  const [lo, hi] = TECH_SPEED[d.network_technology_connected as string] ?? [0, 0];
  const speed = pyRound(((lo + hi) / 2.0) * (SIGNAL_FACTOR[d.network_signal_strength as string] ?? 0) * factor, 2);
  const desc = speed < 1 ? 'Very Poor' : speed < 5 ? 'Poor' : speed < 25 ? 'Fair' : speed < 100 ? 'Good' : 'Excellent';
  return [speed, desc];
}

const SPEED_ADVICE: Record<string, string> = {
  'Very Poor': 'Connection is very slow. Basic web browsing might be difficult.',
  Poor: 'Connection is slow. Web browsing may be sluggish, streaming difficult.',
  Fair: 'Connection is okay for web browsing and some standard definition streaming.',
  Good: 'Connection is good for most activities, including HD streaming.',
  Excellent: 'Connection is very fast.',
};

function toggleAirplane(s: Tau2TelecomState): boolean {
  const d = dev(s);
  const wasOn = d.airplane_mode === true;
  d.airplane_mode = !wasOn;
  const wifiOff = (): void => {
    d.wifi_connected = false;
    d.wifi_ssid = null;
    d.wifi_signal_strength = 'none';
  };
  if (wasOn) {
    d.network_connection_status = 'searching';
    if (d.wifi_enabled === true) wifiOff();
  } else {
    wifiOff();
    if (d.vpn_connected === true) disconnectVpn(s);
  }
  networkSearch(s);
  return d.airplane_mode === true;
}

function toggleFlag(s: Tau2TelecomState, field: string, search: boolean): boolean {
  const value = dev(s)[field] !== true;
  dev(s)[field] = value;
  if (search) networkSearch(s);
  return value;
}

function connectVpn(s: Tau2TelecomState): boolean | null {
  const d = dev(s);
  if (d.vpn_connected === true) return null;
  d.vpn_connected = true;
  d.vpn_details = { server_address: '192.168.1.1', protocol: 'OpenVPN', server_performance: s.tau2_process.default_vpn_performance };
  s.tau2_process.device_vpn_is_default = true;
  return true;
}

function disconnectVpn(s: Tau2TelecomState): boolean {
  const d = dev(s);
  if (d.vpn_connected !== true) return false;
  d.vpn_connected = false;
  d.vpn_details = null;
  s.tau2_process.device_vpn_is_default = false;
  return true;
}

const PERMISSIONS = ['sms', 'storage', 'phone', 'network'];
const apps = (s: Tau2TelecomState): Record<string, Rec> => dev(s).app_statuses as Record<string, Rec>;
const app = (s: Tau2TelecomState, name: string): Rec | undefined => (Object.prototype.hasOwnProperty.call(apps(s), name) ? apps(s)[name] : undefined);
const granted = (a: Rec): string[] => PERMISSIONS.filter((p) => (a.permissions as Rec)[p] === true);

function canSendMms(s: Tau2TelecomState): boolean {
  const d = dev(s);
  if (!mobileDataWorking(s)) return false;
  if (d.network_technology_connected === '2G') return false;
  if (d.wifi_calling_enabled === true && d.wifi_calling_mms_over_wifi === true) return false;
  if (apn(s).mmsc_url == null) return false;
  const messaging = app(s, 'messaging');
  if (messaging === undefined) return false;
  const perms = messaging.permissions as Rec;
  return perms.storage === true && perms.sms === true;
}

const NETWORK_MODES = ['4g_5g_preferred', '4g_only', '3g_only', '2g_only'];

/** `APNSettings(**dict)`: the model's defaults for missing fields, unknown fields refused. */
function apnSettings(value: JsonValue | undefined): Rec {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('apn_settings must be an object');
  const given = value as Rec;
  const defaults: Rec = { apn_name: 'internet', reset_at_reboot: false, mms_apn: 'mms', mmsc_url: 'http://mms.carrier.com/mms/wapenc', mms_proxy: null, mms_port: null };
  for (const key of Object.keys(given)) if (!(key in defaults)) fail(`1 validation error for APNSettings\n${key}\n  Extra inputs are not permitted`);
  if (given.apn_name !== undefined && given.apn_name !== 'internet' && given.apn_name !== 'broken') {
    fail(`1 validation error for APNSettings\napn_name\n  Input should be 'internet' or 'broken'`);
  }
  return { ...defaults, ...given };
}

const PERFORMANCE_ENUM: Record<string, string> = { unknown: 'UNKNOWN', poor: 'POOR', fair: 'FAIR', good: 'GOOD', excellent: 'EXCELLENT' };
const pyOptStr = (v: JsonValue | undefined): string => (typeof v === 'string' ? pyStrRepr(v) : 'None');

const USER_FUNCTIONS: Record<string, Fn> = {
  check_status_bar: (s) => `Status Bar: ${statusBar(s)}`,
  check_network_status: (s) => {
    const d = dev(s);
    const yes = (v: JsonValue | undefined): string => (v === true ? 'Yes' : 'No');
    const on = (v: JsonValue | undefined): string => (v === true ? 'ON' : 'OFF');
    const lines = [
      `Airplane Mode: ${on(d.airplane_mode)}`,
      `SIM Card Status: ${simStatus(s)}`,
      `Cellular Connection: ${d.network_connection_status as string}`,
      `Cellular Signal: ${d.network_signal_strength as string}`,
      `Cellular Network Type: ${d.network_technology_connected as string}`,
      `Mobile Data Enabled: ${yes(d.data_enabled)}`,
      `Data Roaming Enabled: ${yes(d.roaming_enabled)}`,
      `Wi-Fi Radio: ${on(d.wifi_enabled)}`,
      `Wi-Fi Connected: ${yes(d.wifi_connected)}`,
    ];
    if (d.wifi_connected === true) lines.push(`Connected Wi-Fi Network: ${d.wifi_ssid === null ? 'None' : (d.wifi_ssid as string)}`);
    return lines.join('\n');
  },
  check_network_mode_preference: (s) => `Network Mode Preference: ${dev(s).network_mode_preference as string}`,
  set_network_mode_preference: (s, a) => {
    const mode = a.mode;
    if (typeof mode !== 'string' || !NETWORK_MODES.includes(mode)) {
      return withBar(s, `Failed to set network mode: '${String(mode)}' is not a valid option. Please use one of: ${NETWORK_MODES.join(', ')}`);
    }
    dev(s).network_mode_preference = mode;
    networkSearch(s);
    return withBar(s, `Preferred Network Mode set to: ${mode}`);
  },
  run_speed_test: (s) => {
    const [speed, desc] = speedTest(s);
    if (speed === null) return `Speed test failed: ${desc || 'Could not determine speed'}.`;
    return `Speed Test Result: ${fmt2(speed)} Mbps (${desc}). ${SPEED_ADVICE[desc] ?? ''}`;
  },
  toggle_airplane_mode: (s) => withBar(s, `Airplane Mode is now ${toggleAirplane(s) ? 'ON' : 'OFF'}.`),
  check_sim_status: (s) =>
    ({
      active: 'Your SIM card is active and working.',
      missing: 'No SIM card detected in the phone.',
      locked_pin: 'The SIM card is locked with a PIN code.',
      locked_puk: 'The SIM card is locked with a PUK code.',
    })[simStatus(s)] ?? `Unknown SIM status: ${simStatus(s)}`,
  reseat_sim_card: (s) => {
    dev(s).sim_card_missing = false;
    networkSearch(s);
    return withBar(s, 'SIM card re-seated successfully.');
  },
  toggle_data: (s) => withBar(s, `Mobile Data is now ${toggleFlag(s, 'data_enabled', true) ? 'ON' : 'OFF'}.`),
  toggle_roaming: (s) => withBar(s, `Data Roaming is now ${toggleFlag(s, 'roaming_enabled', true) ? 'ON' : 'OFF'}.`),
  check_data_restriction_status: (s) => (dev(s).data_saver_mode === true ? 'Data Saver mode is ON (limits data usage).' : 'Data Saver mode is OFF.'),
  toggle_data_saver_mode: (s) => withBar(s, `Data Saver Mode is now ${toggleFlag(s, 'data_saver_mode', false) ? 'ON' : 'OFF'}.`),
  check_apn_settings: (s) =>
    `Current APN Name: ${(apn(s).apn_name as string) || 'Not Set'}\nMMSC URL (for picture messages): ${(apn(s).mmsc_url as string | null) || 'Not Set'}\n(These are technical settings, usually best left unchanged.)`,
  set_apn_settings: (s, a) => {
    const settings = apnSettings(a.apn_settings);
    dev(s).active_apn_settings = settings;
    networkSearch(s);
    return withBar(s, `APN settings set to: ${settings.apn_name as string}`);
  },
  reset_apn_settings: (s) => {
    apn(s).reset_at_reboot = true;
    networkSearch(s);
    return withBar(s, 'APN settings will reset at reboot.');
  },
  check_wifi_status: (s) => {
    const d = dev(s);
    if (d.wifi_enabled !== true) return 'Wi-Fi is turned OFF.';
    if (d.wifi_connected === true) return `Wi-Fi is ON and connected to '${d.wifi_ssid === null ? 'None' : (d.wifi_ssid as string)}'. Signal strength: ${d.wifi_signal_strength as string}.`;
    return 'Wi-Fi is ON but not connected to any network.';
  },
  toggle_wifi: (s) => {
    const d = dev(s);
    if (d.airplane_mode === true) return withBar(s, 'Cannot change Wi-Fi settings while Airplane Mode is ON.');
    const on = d.wifi_enabled !== true;
    d.wifi_enabled = on;
    if (!on) {
      d.wifi_connected = false;
      d.wifi_ssid = null;
      d.wifi_signal_strength = 'none';
    }
    return withBar(s, `Wi-Fi is now ${on ? 'ON' : 'OFF'}.`);
  },
  check_wifi_calling_status: (s) => `Wi-Fi Calling is currently turned ${dev(s).wifi_calling_enabled === true ? 'ON' : 'OFF'}.`,
  toggle_wifi_calling: (s) => withBar(s, `Wi-Fi Calling is now ${toggleFlag(s, 'wifi_calling_enabled', false) ? 'ON' : 'OFF'}.`),
  check_vpn_status: (s) => {
    const d = dev(s);
    if (d.vpn_connected === true) {
      const v = d.vpn_details as Rec | null;
      if (v) {
        const perf = v.server_performance as string;
        return `VPN is ON and connected. Details: {'server_address': ${pyOptStr(v.server_address)}, 'protocol': ${pyOptStr(v.protocol)}, 'server_performance': <PerformanceLevel.${PERFORMANCE_ENUM[perf] ?? perf.toUpperCase()}: '${perf}'>}`;
      }
      return 'VPN is ON and connected (no specific details available).';
    }
    return d.vpn_enabled_setting === true ? 'VPN is turned ON in settings, but currently not connected.' : 'VPN is turned OFF.';
  },
  connect_vpn: (s) => {
    const connected = connectVpn(s);
    if (connected === null) return 'VPN already connected.';
    return withBar(s, 'VPN connected successfully.');
  },
  disconnect_vpn: (s) => withBar(s, disconnectVpn(s) ? 'VPN disconnected successfully.' : 'No active VPN connection to disconnect.'),
  check_installed_apps: (s) => `The following apps are installed on the phone: ${Object.keys(apps(s)).join(', ')}`,
  check_app_status: (s, a) => {
    const found = app(s, str(a, 'app_name'));
    if (found === undefined) return `App '${str(a, 'app_name')}' not found on this phone.`;
    const lines = [`Status for App: ${str(a, 'app_name')}`];
    const perms = granted(found);
    if (perms.length === 0) lines.push(' - Permissions: None granted.');
    else lines.push(' - Permissions Granted:', ...perms.map((p) => `   - ${p}`));
    return lines.join('\n');
  },
  check_app_permissions: (s, a) => {
    const found = app(s, str(a, 'app_name'));
    if (found === undefined) return `App '${str(a, 'app_name')}' not found on this phone.`;
    const perms = granted(found);
    return perms.length === 0 ? `App '${str(a, 'app_name')}' currently has no permissions granted.` : `App '${str(a, 'app_name')}' has permission for: ${perms.join(', ')}.`;
  },
  grant_app_permission: (s, a) => {
    const name = str(a, 'app_name');
    const permission = str(a, 'permission').toLowerCase();
    const found = app(s, name);
    let message: string;
    let ok = false;
    if (found === undefined) message = `App '${name}' not found. Cannot grant permission.`;
    else if (!PERMISSIONS.includes(permission)) message = `Permission '${permission}' not tracked for app '${name}', available permissions: ${pyStrListRepr(PERMISSIONS)}`;
    else {
      (found.permissions as Rec)[permission] = true;
      ok = true;
      message = `Permission '${permission}' granted to app '${name}'.`;
    }
    return withBar(s, `${ok ? 'Success. ' : 'Error. '}${message}`);
  },
  can_send_mms: (s) => (canSendMms(s) ? 'Your messaging app can send MMS messages.' : 'Your messaging app cannot send MMS messages.'),
  reboot_device: (s) => {
    const lines: string[] = [];
    if (apn(s).reset_at_reboot === true) {
      lines.push('Resetting APN settings...');
      dev(s).active_apn_settings = apnSettings({});
    }
    lines.push('Restarting network services...');
    dev(s).network_connection_status = 'searching';
    networkSearch(s);
    return withBar(s, lines.join('\n'));
  },
  check_payment_request: (s) => {
    const request = sur(s).payment_request as Rec | null;
    if (request === null) return 'No payment request has been made.';
    return `You have a payment request for bill ${request.bill_id as string} of ${py(request.amount_due)} USD.`;
  },
  make_payment: (s) => {
    const request = sur(s).payment_request as Rec | null;
    if (request === null) return 'You do not have a payment request.';
    request.paid = true;
    return `Payment of ${py(request.amount_due)} USD has been made for bill ${request.bill_id as string}.`;
  },
  // Not tools: what tasks' initial states and assertions call.
  set_user_info: (s, a) => {
    sur(s).name = a.name as JsonValue;
    sur(s).phone_number = a.phone_number as JsonValue;
    return null;
  },
  set_user_location: (s, a) => {
    sur(s).is_abroad = a.abroad as JsonValue;
    return null;
  },
  turn_airplane_mode_on: (s) => {
    if (!toggleAirplane(s)) toggleAirplane(s);
    return 'Airplane Mode is now ON.';
  },
  turn_airplane_mode_off: (s) => {
    if (toggleAirplane(s)) toggleAirplane(s);
    return 'Airplane Mode is now OFF.';
  },
  unseat_sim_card: (s) => {
    dev(s).sim_card_missing = true;
    networkSearch(s);
    return 'SIM card un-seated successfully.';
  },
  lock_sim_card: (s, a) => {
    if (a.mode === 'pin') dev(s).sim_card_status = 'locked_pin';
    else if (a.mode === 'puk') dev(s).sim_card_status = 'locked_puk';
    networkSearch(s);
    return `SIM card locked successfully in ${String(a.mode)} mode.`;
  },
  turn_data_on: (s) => {
    dev(s).data_enabled = true;
    return 'Data connection restored.';
  },
  turn_data_off: (s) => {
    if (toggleFlag(s, 'data_enabled', true)) toggleFlag(s, 'data_enabled', true);
    return 'Data connection broken.';
  },
  turn_roaming_on: (s) => {
    if (!toggleFlag(s, 'roaming_enabled', true)) toggleFlag(s, 'roaming_enabled', true);
    return 'Data Roaming is now ON.';
  },
  turn_roaming_off: (s) => {
    if (toggleFlag(s, 'roaming_enabled', true)) toggleFlag(s, 'roaming_enabled', true);
    return 'Data Roaming is now OFF.';
  },
  turn_data_saver_mode_on: (s) => {
    if (!toggleFlag(s, 'data_saver_mode', false)) toggleFlag(s, 'data_saver_mode', false);
    return 'Data Saver Mode is now ON.';
  },
  turn_data_saver_mode_off: (s) => {
    if (toggleFlag(s, 'data_saver_mode', false)) toggleFlag(s, 'data_saver_mode', false);
    return 'Data Saver Mode is now OFF.';
  },
  break_apn_settings: (s) => {
    apn(s).apn_name = 'broken';
    networkSearch(s);
    return 'APN settings broken. Please call reset_apn_settings() to fix.';
  },
  break_apn_mms_setting: (s) => {
    apn(s).mmsc_url = null;
    return 'APN MMS setting broken. Please call reset_apn_settings() to fix.';
  },
  set_wifi_calling: (s, a) => {
    const d = dev(s);
    if (d.wifi_calling_enabled !== a.enabled) toggleFlag(s, 'wifi_calling_enabled', false);
    let message = `Wi-Fi Calling is now ${a.enabled === true ? 'ON' : 'OFF'}.`;
    if (a.mms_over_wifi !== undefined && a.mms_over_wifi !== null) {
      d.wifi_calling_mms_over_wifi = a.mms_over_wifi;
      message += `\nMMS over Wi-Fi is now ${a.mms_over_wifi === true ? 'ON' : 'OFF'}.`;
    }
    return message;
  },
  break_vpn: (s) => {
    connectVpn(s);
    const details = dev(s).vpn_details as Rec | null;
    if (details === null) return fail("'NoneType' object has no attribute 'server_performance'");
    details.server_performance = 'poor';
    // The device's details are the class's shared default object when connect_vpn put them there.
    if (s.tau2_process.device_vpn_is_default) s.tau2_process.default_vpn_performance = 'poor';
    return 'VPN connection broken.';
  },
  remove_app_permission: (s, a) => {
    const name = str(a, 'app_name');
    const permission = str(a, 'permission').toLowerCase();
    const found = app(s, name);
    if (found === undefined) return [false, `App '${name}' not found. Cannot remove permission.`];
    if (!PERMISSIONS.includes(permission)) return [false, `Permission '${permission}' not tracked for app '${name}'.`];
    (found.permissions as Rec)[permission] = false;
    return [true, `Permission '${permission}' removed from app '${name}'.`];
  },
  simulate_network_search: (s) => {
    networkSearch(s);
    return null;
  },
  assert_airplane_mode_status: (s, a) => dev(s).airplane_mode === a.expected_status,
  assert_service_status: (s, a) => dev(s).network_connection_status === a.expected_status,
  assert_mobile_data_status: (s, a) => mobileDataWorking(s) === a.expected_status,
  assert_mobile_roaming_status: (s, a) => dev(s).roaming_enabled === a.expected_status,
  assert_mobile_data_saver_mode_status: (s, a) => dev(s).data_saver_mode === a.expected_status,
  assert_internet_speed: (s, a) => {
    const [speed, desc] = speedTest(s);
    const value = speed ?? 0.0;
    if (a.expected_desc == null) return value >= (a.expected_speed as number);
    return value >= (a.expected_speed as number) && desc.toLowerCase() === (a.expected_desc as string).toLowerCase();
  },
  assert_internet_not_excellent: (s) => speedTest(s)[1].toLowerCase() !== 'excellent',
  assert_can_send_mms: (s, a) => canSendMms(s) === a.expected_status,
  assert_mobile_data_usage_exceeded: (s, a) => sur(s).mobile_data_usage_exceeded === a.expected_status,
};

/** The agent's tool names (tools.json), in tau2's order. */
export const TAU2_TELECOM_AGENT_TOOL_NAMES: readonly string[] = [
  'get_customer_by_phone', 'get_customer_by_id', 'get_customer_by_name', 'get_details_by_id', 'suspend_line', 'resume_line', 'get_bills_for_customer',
  'send_payment_request', 'get_data_usage', 'enable_roaming', 'disable_roaming', 'transfer_to_human_agents', 'refuel_data',
];

/** The user's tool names (user_tools.json), in tau2's order. */
export const TAU2_TELECOM_USER_TOOL_NAMES: readonly string[] = [
  'check_status_bar', 'check_network_status', 'check_network_mode_preference', 'set_network_mode_preference', 'run_speed_test', 'toggle_airplane_mode',
  'check_sim_status', 'reseat_sim_card', 'toggle_data', 'toggle_roaming', 'check_data_restriction_status', 'toggle_data_saver_mode', 'check_apn_settings',
  'set_apn_settings', 'reset_apn_settings', 'check_wifi_status', 'toggle_wifi', 'check_wifi_calling_status', 'toggle_wifi_calling', 'check_vpn_status',
  'connect_vpn', 'disconnect_vpn', 'check_installed_apps', 'check_app_status', 'check_app_permissions', 'grant_app_permission', 'can_send_mms',
  'reboot_device', 'check_payment_request', 'make_payment',
];

/**
 * tau2's `TelecomEnvironment.sync_tools`: copies the user's line status, roaming and data-limit
 * state from the agent DB to the phone's surroundings, marks a paid payment request's bill Paid,
 * and raises a payment request for a bill awaiting payment. A no-op until the user has a phone number.
 */
export function syncTau2Telecom(s: Tau2TelecomState): void {
  const phone = sur(s).phone_number;
  if (phone == null) return;
  const line = lineByPhone(s, phone as string);
  sur(s).line_active = line.status === 'Active';
  sur(s).roaming_allowed = line.roaming_enabled === true;
  const plan = planById(s, line.plan_id as string);
  sur(s).mobile_data_usage_exceeded = (line.data_used_gb as number) >= (plan.data_limit_gb as number) + (line.data_refueling_gb as number);
  const request = sur(s).payment_request as Rec | null;
  if (request !== null && request.paid === true) {
    billById(s, request.bill_id as string).status = 'Paid';
    sur(s).payment_request = null;
  }
  if (sur(s).payment_request === null) {
    const bills = billsAwaitingPayment(s, customerByPhone(s, phone as string));
    const bill = bills[0];
    if (bill !== undefined) sur(s).payment_request = { bill_id: bill.bill_id as string, amount_due: bill.total_due as number, paid: false };
  }
}

/** Options of `runTau2TelecomFunction`. */
export interface RunTau2TelecomFunctionOptions {
  /** Call `syncTau2Telecom` after the function returns (tau2's live path does; its gold path does not). Default true. */
  sync?: boolean;
  /** New bill ids. Default: `B` and a counter, from 1. */
  context?: Tau2TelecomContext;
}

/**
 * Runs one telecom function by name on a side, as tau2's `run_env_function_call` and
 * `get_response` do: a tool, a task set-up function or an assertion. Mutates `state`; throws an
 * Error with tau2's message where tau2 raises, or for a function the side lacks.
 */
export function runTau2TelecomFunction(state: Tau2TelecomState, side: Tau2TelecomSide, name: string, args: JsonObject, options: RunTau2TelecomFunctionOptions = {}): JsonValue {
  const table = side === 'user' ? USER_FUNCTIONS : AGENT_FUNCTIONS;
  const fn = Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
  if (fn === undefined) fail(`Function ${name} not found in ${side} tools`);
  let counter = 0;
  const context = options.context ?? { newBillId: () => `B${String(++counter)}` };
  const result = (fn as Fn)(state, args as Rec, context);
  if (options.sync ?? true) syncTau2Telecom(state);
  return result;
}

/** The telecom state of a session (deep copies, free to change). */
function loadState(ctx: ToolContext): Tau2TelecomState {
  return {
    db: structuredClone(ctx.db.read('db')) as unknown as Tau2TelecomState['db'],
    user_db: structuredClone(ctx.db.read('user_db')) as unknown as Tau2TelecomState['user_db'],
    tau2_process: structuredClone(ctx.db.read('tau2_process')) as unknown as Tau2TelecomState['tau2_process'],
  };
}

function native(side: Tau2TelecomSide, name: string): NativeTool {
  return (args, ctx) => {
    const state = loadState(ctx);
    // A new draft bill gets an environment id (tau2 takes 8 hex digits of uuid4).
    const result = runTau2TelecomFunction(state, side, name, args, { context: { newBillId: () => ctx.ids.next('B') } });
    ctx.db.write('db', state.db as unknown as JsonValue);
    ctx.db.write('user_db', state.user_db as unknown as JsonValue);
    ctx.db.write('tau2_process', state.tau2_process as unknown as JsonValue);
    return result;
  };
}

/** The agent's 13 tools as natives over the telecom state, each followed by `sync_tools`. */
export const TAU2_TELECOM_TOOLS: Readonly<Record<string, NativeTool>> = Object.fromEntries(TAU2_TELECOM_AGENT_TOOL_NAMES.map((n) => [n, native('assistant', n)]));

/** The user's 30 phone tools as natives over the telecom state, each followed by `sync_tools`. */
export const TAU2_TELECOM_USER_TOOLS: Readonly<Record<string, NativeTool>> = Object.fromEntries(TAU2_TELECOM_USER_TOOL_NAMES.map((n) => [n, native('user', n)]));
