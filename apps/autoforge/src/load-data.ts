import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject, jsonTooDeepAt, lineColumnAt } from '@autoforge/core';
import { parse as parseToml } from 'smol-toml';
import { CliError } from './errors.js';

/**
 * Deepest nesting of arrays and objects the CLI reads from a file: no document, database, task
 * or config is legitimately deeper, and deeper text would overflow the stack of the recursive
 * code (validators, canonical JSON, digests) that reads it next.
 */
export const MAX_JSON_DEPTH = 512;

/** A located CLI error (`file:line:column`) when JSON text nests deeper than `max`. */
export function checkJsonDepth(text: string, file: string, max = MAX_JSON_DEPTH): void {
  const at = jsonTooDeepAt(text, max);
  if (at === undefined) return;
  const where = lineColumnAt(text, at);
  throw new CliError('E_INPUT', `${file}:${where.line}:${where.column}: nested deeper than ${max} levels (arrays and objects); no input needs that many`);
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string holds a lone surrogate (which UTF-8 cannot encode: it would become U+FFFD). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** Parses JSON text, turning a syntax error into a located CLI error (`file:line:column`). */
export function parseJsonText(text: string, file: string): JsonValue {
  checkJsonDepth(text, file);
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? lineColumnAt(text, Number(position[1])) : lineColumnAt(text, text.length);
    throw new CliError('E_INPUT', `${file}:${where.line}:${where.column}: invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`);
  }
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CliError('E_INPUT', `${file}: cannot read the file${code ? ` (${code})` : ''}`);
  }
}

/** Reads one JSON (or TOML) file. */
export async function readDataFile(file: string): Promise<JsonValue> {
  const text = await readText(file);
  if (extname(file).toLowerCase() === '.toml') {
    try {
      return parseToml(text) as unknown as JsonValue;
    } catch (error) {
      const e = error as { line?: number; column?: number; message?: string };
      const where = e.line !== undefined ? `:${e.line}:${e.column ?? 1}` : '';
      throw new CliError('E_INPUT', `${file}${where}: invalid TOML: ${(e.message ?? String(error)).split('\n')[0]}`);
    }
  }
  return parseJsonText(text, file);
}

// Keys that name an object's prototype: a collection under one would be lost (or worse) by any
// code that copies the state into a plain object.
const FORBIDDEN_COLLECTIONS = new Set(['__proto__']);

/**
 * Reads a database for `--db`: a JSON/TOML file holding the whole state (an object), or a
 * directory whose `*.json` files are its collections (`orders.json` → `orders`), as tau-bench
 * ships its data.
 */
export async function readDatabase(path: string, shown: string): Promise<JsonObject> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch {
    throw new CliError('E_INPUT', `${shown}: no such file or directory`);
  }
  if (isDirectory) {
    const names = (await readdir(path)).filter((n) => n.toLowerCase().endsWith('.json')).sort();
    if (names.length === 0) throw new CliError('E_INPUT', `${shown}: the directory has no .json files`);
    const db: JsonObject = {};
    for (const name of names) {
      const collection = basename(name, extname(name));
      if (FORBIDDEN_COLLECTIONS.has(collection)) throw new CliError('E_INPUT', `${join(shown, name)}: a collection may not be named "${collection}"`);
      db[collection] = await readDataFile(join(path, name));
    }
    return db;
  }
  const value = await readDataFile(path);
  if (!isJsonObject(value)) throw new CliError('E_INPUT', `${shown}: a database must be a JSON object of collections`);
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_COLLECTIONS.has(key)) throw new CliError('E_INPUT', `${shown}: /${key}: a collection may not be named "${key}" (it names an object's prototype in JavaScript)`);
  }
  return value;
}
