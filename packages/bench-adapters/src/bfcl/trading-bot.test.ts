import type { JsonObject, JsonValue } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callPort, canonicalJson, replayClass } from './class-replay.js';
import { BFCL_CATEGORIES, readBfclEntries, readBfclExpected } from './data.js';
import type { BfclCategory, BfclEntry, BfclExpectedEntry } from './data.js';
import { tradingBotPort } from './trading-bot.js';
import type { TradingBot } from './trading-bot.js';
import { longContextValue } from './long-context.js';
import { BENCHMARKS } from '../test-support.js';
import { PyFloat } from '../python-value.js';
import type { PyValue } from '../python-value.js';

const data = new Map<BfclCategory, { entries: BfclEntry[]; expected: BfclExpectedEntry[] }>();

beforeAll(() => {
  for (const category of BFCL_CATEGORIES) {
    data.set(category, { entries: readBfclEntries(BENCHMARKS, category), expected: readBfclExpected(BENCHMARKS, category) });
  }
});

function loaded(category: BfclCategory): { entries: BfclEntry[]; expected: BfclExpectedEntry[] } {
  const d = data.get(category);
  if (d === undefined) throw new Error(`not loaded: ${category}`);
  return d;
}

/** The calls of the class in a reference replay, counted from the file itself. */
function tradingCalls(expected: readonly BfclExpectedEntry[]): number {
  return expected.reduce((n, e) => n + e.turns.reduce((m, t) => m + t.calls.filter((c) => c.class === 'TradingBot').length, 0), 0);
}

/** Runs calls in order on one instance and gives the executor's strings. */
function run(bot: TradingBot, calls: readonly [string, Record<string, PyValue>][]): string[] {
  return calls.map(([name, args]) => callPort(tradingBotPort, bot, name, args).result);
}

function loggedIn(config: JsonObject = {}, longContext = false): TradingBot {
  return tradingBotPort.load({ authenticated: true, ...config }, longContext);
}

/** The state of `initial_config` of multi_turn_base_100: an `orders` key `"order_type"` that is no order. */
function base100Config(): JsonObject {
  const entry = loaded('base').entries.find((e) => e.id === 'multi_turn_base_100');
  const config = entry?.initial_config.TradingBot;
  if (config === undefined) throw new Error('multi_turn_base_100 has no TradingBot config');
  return config;
}

describe('tradingBotPort against the reference replays', () => {
  for (const category of BFCL_CATEGORIES) {
    for (const viaSnapshot of [false, true]) {
      it(`replays every TradingBot gold call of ${category}${viaSnapshot ? ' through snapshot round trips' : ''} with 0 mismatches`, () => {
        const { entries, expected } = loaded(category);
        const report = replayClass(tradingBotPort, entries, expected, { viaSnapshot });
        expect(report.mismatches).toEqual([]);
        expect(report.calls).toBe(tradingCalls(expected));
        expect(report.calls).toBe(203);
        expect(report.entries).toBe(50);
      });
    }
  }
});

describe('TradingBot error paths a model can hit (strings from Python 3.11 running trading_bot.py)', () => {
  it('looks orders up with Python hashing: 12345.0 finds int 12345, "12345" and True do not, a list raises', () => {
    const bot = tradingBotPort.load(base100Config(), false);
    const keys = "[12345, 'order_type']";
    expect(
      run(bot, [
        ['get_order_details', { order_id: new PyFloat(12345) }],
        ['get_order_details', { order_id: '12345' }],
        ['get_order_details', { order_id: true }],
        ['get_order_details', { order_id: 'order_type' }],
        ['get_order_details', { order_id: [1] }],
        ['cancel_order', { order_id: new PyFloat(12345) }],
        ['cancel_order', { order_id: 'order_type' }],
        ['cancel_order', { order_id: null }],
      ]),
    ).toEqual([
      '{"symbol": "AAPL", "price": 210.65, "num_shares": 10, "status": "Completed"}',
      `{"error": "Order with ID 12345 not found.Here is the list of orders_id: ${keys}"}`,
      `{"error": "Order with ID True not found.Here is the list of orders_id: ${keys}"}`,
      'Buy',
      "Error during execution: unhashable type: 'list'",
      '{"error": "Can\'t cancel order 12345.0. Order is already completed."}',
      "Error during execution: string indices must be integers, not 'str'",
      '{"error": "Order with ID None not found."}',
    ]);
  });

  it('raises on the non-dict order in long context, and KeyError when an order has no symbol', () => {
    const bot = tradingBotPort.load({ orders: { '1': { status: 'Open' }, '2': 'Buy' } }, true);
    expect(
      run(bot, [
        ['get_order_details', { order_id: 1 }],
        ['get_order_details', { order_id: 2 }],
      ]),
    ).toEqual(["Error during execution: 'symbol'", "Error during execution: 'str' object has no attribute 'copy'"]);
  });

  it('place_order checks in Python order and raises TypeError/AttributeError on wrong types', () => {
    const bot = loggedIn();
    expect(
      run(bot, [
        ['place_order', { order_type: 'Buy', symbol: 'XXX', price: 1, amount: 1 }],
        ['place_order', { order_type: 'Buy', symbol: [1], price: 1, amount: 1 }],
        ['place_order', { order_type: 'Buy', symbol: 'AAPL', price: '10', amount: 1 }],
        ['place_order', { order_type: 'Buy', symbol: 'AAPL', price: null, amount: 1 }],
        ['place_order', { order_type: 'Buy', symbol: 'AAPL', price: -1, amount: 'x' }],
        ['place_order', { order_type: 'Buy', symbol: 'AAPL', price: 1, amount: { a: 1 } }],
        ['place_order', { order_type: 5, symbol: 'AAPL', price: 1, amount: 1 }],
        ['place_order', { order_type: null, symbol: 'AAPL', price: 1, amount: 1 }],
        ['place_order', { order_type: 'BUY', symbol: 'AAPL', price: 1000, amount: 1000 }],
        ['place_order', { order_type: 'buy', symbol: 'AAPL', price: 10000.125, amount: 1 }],
        ['place_order', { order_type: 'Buy', symbol: 'AAPL', price: 2, amount: 2.7 }],
        ['place_order', { order_type: 'Buy', symbol: 'AAPL', price: true, amount: true }],
        ['get_order_history', {}],
      ]),
    ).toEqual([
      '{"error": "Invalid stock symbol: XXX"}',
      "Error during execution: unhashable type: 'list'",
      "Error during execution: '<=' not supported between instances of 'str' and 'int'",
      "Error during execution: '<=' not supported between instances of 'NoneType' and 'int'",
      '{"error": "Price and amount must be positive values."}',
      "Error during execution: '<=' not supported between instances of 'dict' and 'int'",
      "Error during execution: 'int' object has no attribute 'lower'",
      "Error during execution: 'NoneType' object has no attribute 'lower'",
      '{"error": "Insufficient funds: required $1000000.00 but only $10000.00 available."}',
      // f"{10000.125:.2f}" rounds the exact tie to even (toFixed would give 10000.13).
      '{"error": "Insufficient funds: required $10000.12 but only $10000.00 available."}',
      '{"order_id": 12446, "order_type": "Buy", "status": "Pending", "price": 2.0, "amount": 2.7}',
      '{"order_id": 12447, "order_type": "Buy", "status": "Pending", "price": 1.0, "amount": true}',
      '{"history": [12345, 12446, 12447]}',
    ]);
    expect(bot.publicState().order_counter).toBe(12448);
  });

  it('keeps float-ness of balances: an int deposit on 10000.0 gives 10005.0, draws timestamps from seed 1053520', () => {
    const bot = loggedIn({ market_status: 'Open' });
    expect(
      run(bot, [
        ['fund_account', { amount: '100' }],
        ['fund_account', { amount: [1] }],
        ['fund_account', { amount: 0 }],
        ['fund_account', { amount: 5 }],
        ['withdraw_funds', { amount: 1e9 }],
        ['withdraw_funds', { amount: null }],
        ['withdraw_funds', { amount: 0.5 }],
        ['get_transaction_history', {}],
      ]),
    ).toEqual([
      "Error during execution: '<=' not supported between instances of 'str' and 'int'",
      "Error during execution: '<=' not supported between instances of 'list' and 'int'",
      '{"error": "Funding amount must be positive."}',
      '{"status": "Account funded successfully", "new_balance": 10005.0}',
      '{"error": "Insufficient funds for withdrawal."}',
      "Error during execution: '<=' not supported between instances of 'NoneType' and 'int'",
      '{"status": "Withdrawal successful", "new_balance": 10004.5}',
      '{"transaction_history": [{"type": "deposit", "amount": 5, "timestamp": "2024-09-02 05:40:15"}, {"type": "withdrawal", "amount": 0.5, "timestamp": "2024-09-01 12:26:34"}]}',
    ]);
  });

  it('parses dates with strptime semantics: type errors, no match, unconverted data, impossible days', () => {
    const bot = loggedIn({
      transaction_history: [{ order_id: 12345, symbol: 'AAPL', price: 210.65, num_shares: 10, status: 'Completed', timestamp: '2024-10-27 14:10:53' }],
    });
    const history = (args: Record<string, PyValue>): string => run(bot, [['get_transaction_history', args]])[0] as string;
    expect(history({ start_date: 5 })).toBe('Error during execution: strptime() argument 1 must be str, not int');
    expect(history({ start_date: { a: 1 } })).toBe('Error during execution: strptime() argument 1 must be str, not dict');
    expect(history({ end_date: 3.5 })).toBe('Error during execution: strptime() argument 1 must be str, not float');
    expect(history({ start_date: '2024-13-01' })).toBe("Error during execution: time data '2024-13-01' does not match format '%Y-%m-%d'");
    expect(history({ start_date: '2024-09-011' })).toBe('Error during execution: unconverted data remains: 1');
    expect(history({ start_date: '2024-02-30' })).toBe('Error during execution: day is out of range for month');
    expect(history({ start_date: '0000-01-01' })).toBe('Error during execution: year 0 is out of range');
    // Falsy arguments mean "no bound", as `if start_date:` does.
    const all =
      '{"transaction_history": [{"order_id": 12345, "symbol": "AAPL", "price": 210.65, "num_shares": 10, "status": "Completed", "timestamp": "2024-10-27 14:10:53"}]}';
    expect(history({ start_date: '', end_date: 0 })).toBe(all);
    expect(history({ start_date: '2024-9-1', end_date: '2024-10-28' })).toBe(all);
    // The end bound is midnight of end_date.
    expect(history({ end_date: '2024-10-27' })).toBe('{"transaction_history": []}');
    const bad = tradingBotPort.load({ authenticated: true, transaction_history: [{ type: 'x', amount: 1, timestamp: 5 }] }, false);
    expect(run(bad, [['get_transaction_history', {}]])).toEqual(['Error during execution: strptime() argument 1 must be str, not int']);
  });

  it('iterates like Python: a string by characters, a dict by keys, a number raises', () => {
    const bot = loggedIn();
    expect(
      run(bot, [
        ['filter_stocks_by_price', { stocks: 'AAPL', min_price: 0, max_price: 1000 }],
        ['filter_stocks_by_price', { stocks: 5, min_price: 0, max_price: 1 }],
        ['filter_stocks_by_price', { stocks: ['AAPL'], min_price: 'x', max_price: 1 }],
        ['filter_stocks_by_price', { stocks: [], min_price: 'x', max_price: null }],
        ['filter_stocks_by_price', { stocks: { AAPL: 1, ZZZ: 2 }, min_price: 0, max_price: 500 }],
        ['filter_stocks_by_price', { stocks: [[1]], min_price: 0, max_price: 1 }],
        ['notify_price_change', { stocks: null, threshold: 1 }],
        ['notify_price_change', { stocks: ['AAPL'], threshold: 'x' }],
        ['notify_price_change', { stocks: ['AAPL', 'TSLA', 'ZETA'], threshold: 0.1 }],
        ['add_to_watchlist', { stock: [1] }],
        ['add_to_watchlist', { stock: 5 }],
        ['add_to_watchlist', { stock: 'AAPL' }],
        ['remove_stock_from_watchlist', { symbol: 'ZZZ' }],
        ['get_symbol_by_name', { name: { a: 1 } }],
        ['get_available_stocks', { sector: [1] }],
        ['get_stock_info', { symbol: 5 }],
      ]),
    ).toEqual([
      '{"filtered_stocks": ["A", "A", "P", "L"]}',
      "Error during execution: 'int' object is not iterable",
      "Error during execution: '>=' not supported between instances of 'float' and 'str'",
      '{"filtered_stocks": []}',
      '{"filtered_stocks": ["AAPL", "ZZZ"]}',
      "Error during execution: unhashable type: 'list'",
      "Error during execution: 'NoneType' object is not iterable",
      "Error during execution: '>=' not supported between instances of 'float' and 'str'",
      '{"notification": "Stocks AAPL, TSLA have significant price changes."}',
      "Error during execution: unhashable type: 'list'",
      '{"watchlist": ["NVDA"]}',
      '{"watchlist": ["NVDA", "AAPL"]}',
      '{"error": "Stock ZZZ not found in watchlist."}',
      "Error during execution: unhashable type: 'dict'",
      "Error during execution: unhashable type: 'list'",
      '{"error": "Stock with symbol \'5\' not found."}',
    ]);
  });

  it('returns lists, not dicts, when not logged in, so the executor prints Python repr', () => {
    const bot = tradingBotPort.load(undefined, false);
    expect(
      run(bot, [
        ['get_watchlist', {}],
        ['get_order_history', {}],
        ['trading_get_login_status', {}],
        ['trading_logout', {}],
      ]),
    ).toEqual([
      "['Error: User not authenticated. Please log in to view the watchlist.']",
      "[{'error': 'User not authenticated. Please log in to view order history.'}]",
      '{"status": false}',
      '{"status": "No user is currently logged in"}',
    ]);
  });

  it('ends the long-context watch list with Ellipsis and never changes state with the extensions', () => {
    const bot = loggedIn({}, true);
    const before = canonicalJson(bot.publicState());
    const [watch, stock, tech] = run(bot, [
      ['get_watchlist', {}],
      ['get_stock_info', { symbol: 'AAPL' }],
      ['get_available_stocks', { sector: 'Technology' }],
    ]);
    expect(watch?.startsWith("['NVDA', 'JHGUN', ")).toBe(true);
    expect(watch?.endsWith(", 'ZRFRE', Ellipsis]")).toBe(true);
    expect(stock?.includes('"MA(5)": [234.34, 212.46,')).toBe(true);
    expect(stock?.includes(', 225.0, ')).toBe(true);
    expect(tech?.startsWith('{"stock_list": ["AAPL", "GOOG", "MSFT", "NVDA", "AAPL", "GOOG", "MSFT", "NVDA", "LGY",')).toBe(true);
    expect(canonicalJson(bot.publicState())).toBe(before);
  });

  it('long-context order metadata is the extension with every {symbol} replaced (the only brace in those texts)', () => {
    const extension = longContextValue('ORDER_DETAIL_EXTENSION') as { [key: string]: string };
    for (const text of Object.values(extension)) expect(text.replaceAll('{symbol}', '')).not.toMatch(/[{}]/);
    const bot = tradingBotPort.load(undefined, true);
    const order = tradingBotPort.methods.get_order_details!.call(bot, { order_id: 12446 }) as { metadata: { [key: string]: string }; symbol: string };
    expect(order.symbol).toBe('GOOG');
    expect(Object.keys(order.metadata)).toEqual(Object.keys(extension));
    expect(order.metadata.company_overview).toBe((extension.company_overview as string).replaceAll('{symbol}', 'GOOG'));
    expect(order.metadata.company_overview).toContain('GOOG is one of the most influential companies');
  });

  it('calls with a missing argument raise TypeError instead of a JavaScript error', () => {
    const bot = loggedIn();
    expect(run(bot, [['get_stock_info', {}]])).toEqual(["Error during execution: TradingBot.get_stock_info() missing 1 required positional argument: 'symbol'"]);
  });
});

describe('TradingBot instances never share state', () => {
  it('mutating one instance leaves a fresh load unchanged (default state and a config)', () => {
    const fresh = canonicalJson(tradingBotPort.load(undefined, false).publicState());
    const config = base100Config();
    const configText = JSON.stringify(config);
    for (const [cfg, longContext] of [
      [undefined, false],
      [config, true],
    ] as const) {
      const bot = tradingBotPort.load(cfg, longContext);
      run(bot, [
        ['trading_login', { username: 'u', password: 'p' }],
        ['add_to_watchlist', { stock: 'AAPL' }],
        ['remove_stock_from_watchlist', { symbol: 'NVDA' }],
        ['place_order', { order_type: 'Buy', symbol: 'AAPL', price: 1, amount: 1 }],
        ['cancel_order', { order_id: 12446 }],
        ['fund_account', { amount: 10 }],
      ]);
      expect(canonicalJson(bot.publicState())).not.toBe(canonicalJson(tradingBotPort.load(cfg, longContext).publicState()));
    }
    expect(canonicalJson(tradingBotPort.load(undefined, false).publicState())).toBe(fresh);
    expect(JSON.stringify(config)).toBe(configText);
  });

  it('returned values are copies: changing one changes neither the instance nor the long-context constants', () => {
    const bot = loggedIn({}, true);
    const watch = tradingBotPort.methods.get_watchlist!.call(bot, {}) as PyValue[];
    watch.length = 0;
    const stock = tradingBotPort.methods.get_stock_info!.call(bot, { symbol: 'AAPL' }) as { [k: string]: PyValue };
    (stock['MA(5)'] as PyValue[]).length = 0;
    stock.price = 1;
    const tech = tradingBotPort.methods.get_available_stocks!.call(bot, { sector: 'Technology' }) as { stock_list: string[] };
    tech.stock_list.push('X');
    const other = loggedIn({}, true);
    for (const b of [bot, other]) {
      expect((tradingBotPort.methods.get_watchlist!.call(b, {}) as PyValue[]).length).toBe(1002);
      const s = tradingBotPort.methods.get_stock_info!.call(b, { symbol: 'AAPL' }) as { [k: string]: PyValue };
      expect((s['MA(5)'] as PyValue[]).length).toBe(2000);
      expect(s.price).toBe(227.16);
      expect((tradingBotPort.methods.get_available_stocks!.call(b, { sector: 'Technology' }) as { stock_list: string[] }).stock_list.length).toBe(1004);
    }
  });

  it('a restored snapshot continues the random stream and float-ness exactly', () => {
    const a = loggedIn({ market_status: 'Open', orders: { '7': { status: 'Open', price: 3.5 } } });
    run(a, [['fund_account', { amount: 1 }]]);
    const b = tradingBotPort.restore(JSON.parse(JSON.stringify(a.snapshot())) as JsonValue);
    const calls: [string, Record<string, PyValue>][] = [
      ['fund_account', { amount: 2 }],
      ['withdraw_funds', { amount: 3 }],
      ['get_order_details', { order_id: 7 }],
      ['get_transaction_history', {}],
      ['get_order_history', {}],
    ];
    const fromA = run(a, calls);
    expect(run(b, calls)).toEqual(fromA);
    expect(fromA[2]).toBe('{"status": "Open", "price": 3.5}');
    expect(fromA[3]).toBe(
      '{"transaction_history": [{"type": "deposit", "amount": 1, "timestamp": "2024-09-02 05:40:15"}, {"type": "deposit", "amount": 2, "timestamp": "2024-09-01 12:26:34"}, {"type": "withdrawal", "amount": 3, "timestamp": "2024-09-02 04:29:48"}]}',
    );
    expect(fromA[0]).toBe('{"status": "Account funded successfully", "new_balance": 10003.0}');
  });

  it('timestamps do not depend on the host time zone', () => {
    const saved = process.env.TZ;
    try {
      const stamps = ['UTC', 'America/New_York', 'Asia/Kolkata'].map((tz) => {
        process.env.TZ = tz;
        return run(loggedIn(), [['fund_account', { amount: 1 }], ['get_transaction_history', {}]])[1];
      });
      expect(new Set(stamps).size).toBe(1);
      expect(stamps[0]).toContain('"timestamp": "2024-09-02 05:40:15"');
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});
