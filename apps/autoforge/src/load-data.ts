import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { parse as parseToml } from 'smol-toml';
import { CliError } from './errors.js';

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      last = i;
    }
  }
  return { line, column: offset - last };
}

/** Parses JSON text, turning a syntax error into a located CLI error (`file:line:column`). */
export function parseJsonText(text: string, file: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? lineColumn(text, Number(position[1])) : lineColumn(text, text.length);
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
    for (const name of names) db[basename(name, extname(name))] = await readDataFile(join(path, name));
    return db;
  }
  const value = await readDataFile(path);
  if (!isJsonObject(value)) throw new CliError('E_INPUT', `${shown}: a database must be a JSON object of collections`);
  return value;
}
