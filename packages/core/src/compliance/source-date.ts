/** Now, or `SOURCE_DATE_EPOCH` (seconds) when set: reproducible builds, and tests that fix the clock. */
export function sourceDate(): Date {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  return epoch && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
}
