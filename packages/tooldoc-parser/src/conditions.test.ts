import { describe, expect, it } from 'vitest';
import { parseConditions } from './index.js';

describe('parseConditions', () => {
  it('takes VitaBench blocks out of the description', () => {
    const text = 'Get weather\n\nPreconditions:\n    - Query weather for an address\nPostconditions:\n    - Return weather information';
    expect(parseConditions(text)).toEqual({
      description: 'Get weather',
      conditions: { preconditions: ['Query weather for an address'], postconditions: ['Return weather information'] },
    });
  });

  it('reads several bullets, bullet styles, inline items and continuation lines', () => {
    const text = [
      'Cancel an order.',
      'Pre-conditions: the order exists',
      '  * it is pending',
      '  1. the user confirmed',
      '     explicitly, in this turn',
      '',
      'Refunds take 5 days.',
      'Postcondition:',
      '  • the order is cancelled',
    ].join('\n');
    expect(parseConditions(text)).toEqual({
      description: 'Cancel an order.\n\nRefunds take 5 days.',
      conditions: {
        preconditions: ['the order exists', 'it is pending', 'the user confirmed explicitly, in this turn'],
        postconditions: ['the order is cancelled'],
      },
    });
  });

  it('keeps a blank line inside a block when a bullet follows', () => {
    expect(parseConditions('X\nPreconditions:\n - a\n\n - b\nTail').conditions?.preconditions).toEqual(['a', 'b']);
    expect(parseConditions('X\nPreconditions:\n - a\n\n - b\nTail').description).toBe('X\nTail');
  });

  it('leaves a description without blocks as it is', () => {
    expect(parseConditions('  Just text.\n')).toEqual({ description: '  Just text.\n', conditions: undefined });
  });
});
