import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import type * as QuickJS from 'quickjs-emscripten';

// @types/node does not declare the WebAssembly namespace; the little used here.
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
}

let compiled: Promise<object | undefined> | undefined;

// The release-sync variant's .wasm (the variant newQuickJSWASMModule() loads by default),
// compiled once per process. undefined when it cannot be found or compiled.
async function compileOnce(): Promise<object | undefined> {
  try {
    const entry = createRequire(import.meta.url).resolve('quickjs-emscripten');
    const wasmPath = createRequire(entry).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    return await wasm.compile(await readFile(wasmPath));
  } catch {
    return undefined;
  }
}

/**
 * The QuickJS .wasm compiled to machine code (a `WebAssembly.Module`, which can be posted to
 * worker threads), once per process; undefined when it cannot be found or compiled.
 */
export function compiledSandboxWasm(): Promise<object | undefined> {
  compiled ??= compileOnce();
  return compiled;
}

/**
 * A new QuickJS WebAssembly module: its own instance and memory (a fault in one environment's
 * sandbox cannot reach another's), from machine code compiled once per process. Compiling the
 * .wasm again for every environment cost about 4–7 ms; instantiating a compiled module, under 1 ms.
 * Falls back to quickjs-emscripten's own loading when the compiled module is not available.
 * `precompiled`: a module compiled by `compiledSandboxWasm` in another thread.
 */
export async function newSandboxModule(precompiled?: object): Promise<QuickJSWASMModule> {
  // Loaded here, on the first sandbox: an environment of natives and drivers never loads QuickJS.
  const { RELEASE_SYNC, newQuickJSWASMModule, newVariant } = await import('quickjs-emscripten');
  const wasmModule = precompiled ?? (await compiledSandboxWasm());
  if (wasmModule !== undefined) {
    try {
      const options = { wasmModule } as unknown as Parameters<typeof QuickJS.newVariant>[1];
      return await newQuickJSWASMModule(newVariant(RELEASE_SYNC, options));
    } catch {
      // Below: the default loader.
    }
  }
  return newQuickJSWASMModule();
}
