import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** The files of a `.tgz` package tarball (ustar), by path inside it (`package/package.json`). */
export function tarballFiles(path: string): Map<string, Buffer> {
  const tar = gunzipSync(readFileSync(path));
  const files = new Map<string, Buffer>();
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const prefix = field(345, 155);
    const data = tar.subarray(offset + 512, offset + 512 + size);
    if (type === 'x') {
      // A pax header; its `path` record replaces the next entry's name.
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1];
    } else {
      if (type === '0' || type === '') files.set(longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100)), data);
      longName = undefined;
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** The package.json inside a package tarball, as packed (`workspace:` ranges already replaced). */
export function packedManifest<T>(path: string): T {
  const entry = [...tarballFiles(path)].find(([name]) => /^[^/]+\/package\.json$/.test(name));
  if (!entry) throw new Error(`package-checks: ${path} has no package.json`);
  return JSON.parse(entry[1].toString('utf8')) as T;
}
