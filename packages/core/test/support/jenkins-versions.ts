/**
 * Jenkins' order of core and plugin releases, as far as the pins need it: numeric components compared as numbers, in
 * order; the first non-numeric component (an incremental's `v<commit>`) ends the comparison, and of two releases with
 * the same numbers the one with more numeric components is the later (807.809.vd3a_4e5e4ec98 follows
 * 807.v7d7de30930cf; 2.5-149.v72471e9c6371 follows 2.5-143.v93b_c004f89de). Negative: a before b.
 */
export function compareVersions(a: string, b: string): number {
  const numbers = (v: string) => {
    const parts = v.split(/[.-]/);
    const end = parts.findIndex((part) => !/^\d+$/.test(part));
    return parts.slice(0, end === -1 ? parts.length : end).map(Number);
  };
  const x = numbers(a);
  const y = numbers(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
