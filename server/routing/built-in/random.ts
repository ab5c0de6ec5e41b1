/**
 * A small seeded generator (mulberry32) so a solve is repeatable for a seed: the same problem,
 * seed and iteration count give the same routes on any machine, unless the time cap cuts the
 * rounds short (decisions 0077, 0093).
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, bound). */
  below(bound: number): number;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return { next, below: (bound) => Math.floor(next() * bound) };
}
