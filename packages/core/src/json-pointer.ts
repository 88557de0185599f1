import { CoreError } from './error.js';

/** Escapes one reference token (RFC 6901). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds a JSON pointer from tokens: `['paths', '/orders']` → `/paths/~1orders`. */
export function toPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}

/** Splits a JSON pointer into unescaped tokens. A leading `#` (URI fragment form) is allowed. */
export function parsePointer(pointer: string): string[] {
  let p = pointer.startsWith('#') ? safeDecode(pointer.slice(1), pointer) : pointer;
  if (p === '') return [];
  if (!p.startsWith('/')) throw new CoreError('E_POINTER', `invalid JSON pointer "${pointer}": must start with "/"`);
  p = p.slice(1);
  return p.split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function safeDecode(text: string, pointer: string): string {
  try {
    return decodeURIComponent(text);
  } catch (cause) {
    throw new CoreError('E_POINTER', `invalid JSON pointer "${pointer}": bad percent-encoding`, { cause });
  }
}

/** The value at a pointer, or `undefined` when the path does not exist. */
export function getAtPointer(root: unknown, pointer: string | readonly string[]): unknown {
  const tokens = typeof pointer === 'string' ? parsePointer(pointer) : pointer;
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (typeof node === 'object' && node !== null && Object.prototype.hasOwnProperty.call(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}
