/**
 * CPython's `random.Random` for the calls the BFCL classes make: MT19937 seeded with
 * `init_by_array` over the seed's 32-bit words (least significant first), `getrandbits`,
 * `_randbelow`, `randint`, `random` and `uniform`, bit for bit (checked against
 * `expected/python_random.json`). The generator counts the 32-bit words it has drawn, so a
 * snapshot is `{ seed, words }` and a restore replays the stream to the same position.
 */

const N = 624;
const M = 397;

/** A snapshot of a `PyRandom`: its seed and how many 32-bit words it has drawn. */
export interface PyRandomSnapshot {
  seed: number;
  words: number;
}

export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;
  private drawn = 0;

  /** `random.Random(seed)` for a non-negative integer seed below 2^53. */
  constructor(readonly seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`PyRandom: seed must be a non-negative safe integer, got ${seed}`);
    const key: number[] = [];
    let rest = BigInt(seed);
    do {
      key.push(Number(rest & 0xffffffffn));
      rest >>= 32n;
    } while (rest > 0n);
    this.initByArray(key);
  }

  /** A generator at the snapshot's position. */
  static restore(snapshot: PyRandomSnapshot): PyRandom {
    const rng = new PyRandom(snapshot.seed);
    for (let i = 0; i < snapshot.words; i++) rng.nextUint32();
    return rng;
  }

  /** The seed and the number of words drawn so far. */
  snapshot(): PyRandomSnapshot {
    return { seed: this.seed, words: this.drawn };
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1664525)) + (key[j] as number) + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private twist(): void {
    const mt = this.mt;
    for (let kk = 0; kk < N; kk++) {
      const y = ((mt[kk] as number) & 0x80000000) | ((mt[(kk + 1) % N] as number) & 0x7fffffff);
      mt[kk] = ((mt[(kk + M) % N] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
    }
    this.index = 0;
  }

  /** `genrand_uint32()`: the next 32-bit word. */
  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    this.drawn++;
    return y >>> 0;
  }

  /** `getrandbits(k)` for k ≥ 0: words least significant first, the last one shifted right. */
  getrandbits(k: number): bigint {
    if (!Number.isInteger(k) || k < 0) throw new RangeError('number of bits must be non-negative');
    if (k === 0) return 0n;
    if (k <= 32) return BigInt(this.nextUint32() >>> (32 - k));
    let out = 0n;
    let shift = 0n;
    for (let left = k; left > 0; left -= 32) {
      let word = this.nextUint32();
      if (left < 32) word >>>= 32 - left;
      out |= BigInt(word) << shift;
      shift += 32n;
    }
    return out;
  }

  /** `_randbelow(n)` for 0 < n ≤ 2^53: `getrandbits(n.bit_length())` until it is below n. */
  randbelow(n: number): number {
    if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`randbelow: n must be a positive safe integer, got ${n}`);
    const k = n.toString(2).length;
    const bound = BigInt(n);
    for (;;) {
      const r = this.getrandbits(k);
      if (r < bound) return Number(r);
    }
  }

  /** `randint(a, b)`: `a + _randbelow(b - a + 1)`. */
  randint(a: number, b: number): number {
    const width = b - a + 1;
    if (width <= 0) throw new RangeError(`empty range in randint(${a}, ${b})`);
    return a + this.randbelow(width);
  }

  /** `random()`: 53 bits from two words, in [0, 1). */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `uniform(a, b)`: `a + (b - a) * random()`. */
  uniform(a: number, b: number): number {
    return a + (b - a) * this.random();
  }
}
