/** An IPv4 range `a.b.c.d/n`: its octets, prefix length and first address. */
export interface Ipv4Range {
  readonly octets: number[];
  readonly prefix: number;
  readonly address: number;
}

/** An IPv4 range with no host bits set; undefined for anything else. */
export function ipv4Range(cidr: unknown): Ipv4Range | undefined {
  const match = typeof cidr === 'string' ? /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr) : null;
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  const address = octets.reduce((a, o) => a * 256 + o, 0);
  return address % 2 ** (32 - prefix) === 0 ? { octets, prefix, address } : undefined;
}

/** Whether `range` lies inside the range that starts at `address` and has `prefix` bits. */
export function ipv4Within(range: Ipv4Range, address: number, prefix: number): boolean {
  return range.prefix >= prefix && Math.floor(range.address / 2 ** (32 - prefix)) === Math.floor(address / 2 ** (32 - prefix));
}

/**
 * The private networks of RFC 1918 (10/8, 172.16/12, 192.168/16), as first address and prefix.
 * @see https://www.rfc-editor.org/rfc/rfc1918#section-3
 */
export const PRIVATE_RANGES: ReadonlyArray<readonly [number, number]> = [[0x0a000000, 8], [0xac100000, 12], [0xc0a80000, 16]];

/**
 * What is not the public internet besides RFC 1918 (IANA IPv4 Special-Purpose Address Registry): "this network" 0/8,
 * shared address space 100.64/10, loopback 127/8, link-local 169.254/16, multicast 224/4 and reserved 240/4.
 * @see https://www.rfc-editor.org/rfc/rfc6890#section-2.2.2
 */
const NOT_PUBLIC: ReadonlyArray<readonly [number, number]> = [
  ...PRIVATE_RANGES, [0x00000000, 8], [0x64400000, 10], [0x7f000000, 8], [0xa9fe0000, 16], [0xe0000000, 4], [0xf0000000, 4],
];

/** How many public internet addresses the ranges reach together (each address counted once). */
export function publicAddresses(ranges: readonly Ipv4Range[]): number {
  const spans = (list: ReadonlyArray<readonly [number, number]>) => list.map(([start, prefix]) => [start, start + 2 ** (32 - prefix)] as const);
  const merged = merge(spans(ranges.map((r) => [r.address, r.prefix] as const)));
  const excluded = merge(spans(NOT_PUBLIC));
  let total = 0;
  for (const [start, end] of merged) {
    total += end - start;
    for (const [xs, xe] of excluded) total -= Math.max(0, Math.min(end, xe) - Math.max(start, xs));
  }
  return total;
}

/** Half-open intervals, sorted and joined where they overlap or touch. */
function merge(spans: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}
