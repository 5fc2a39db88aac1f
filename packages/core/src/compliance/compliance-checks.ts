/**
 * PRODUCTION's checks (`compliance-packs.ts`: the packs, the failing synth, the evidence report), loaded on first use: they
 * load cdk-nag, most of what a synth would otherwise load, which a profile without packs never needs
 * (docs/benchmarks.md).
 */
export function complianceChecks(): typeof import('./compliance-packs') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./compliance-packs');
}
