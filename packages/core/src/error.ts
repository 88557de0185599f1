/** Where an error or issue points to in an input. */
export interface Location {
  /** The file, when the input came from one. */
  file?: string;
  /** RFC 6901 JSON pointer. */
  pointer?: string;
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  column?: number;
}

/** Formats a location as `file:line:column#pointer` (parts omitted when unknown). */
export function formatLocation(location: Location): string {
  let text = location.file ?? '';
  if (location.line !== undefined) {
    text += `${text ? ':' : 'line '}${location.line}`;
    if (location.column !== undefined) text += `:${location.column}`;
  }
  if (location.pointer !== undefined) text += `${text ? ' ' : ''}${location.pointer === '' ? '/' : location.pointer}`;
  return text;
}

/**
 * The base class of every AutoForge error. Each package subclasses it with its own union of
 * `code`s. Thrown for programmer errors; expected failures are `Result`s instead.
 */
export class AutoForgeError<C extends string = string> extends Error {
  /** A stable, machine-readable code (`E_…`). */
  readonly code: C;
  /** Where the problem is, when it concerns an input. */
  readonly location: Location | undefined;

  constructor(code: C, message: string, options: { cause?: unknown; location?: Location } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.location = options.location;
  }
}

/** Error codes of `@autoforge/core`. */
export type CoreErrorCode = 'E_CANONICAL_JSON' | 'E_RNG' | 'E_POINTER' | 'E_JSONL_LINE' | 'E_JSONL_DUPLICATE_ID' | 'E_JSONL_IO';

/** The error class of `@autoforge/core`. */
export class CoreError extends AutoForgeError<CoreErrorCode> {}

/** True when `value` is an AutoForge error (any package), also across duplicated copies. */
export function isAutoForgeError(value: unknown): value is AutoForgeError {
  return (
    value instanceof AutoForgeError ||
    (value instanceof Error && typeof (value as { code?: unknown }).code === 'string' && 'location' in value)
  );
}
