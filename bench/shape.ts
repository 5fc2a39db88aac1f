/** The context of the benchmarks' deployment (the bench plugin's application, DEV, FARGATE, no TLS). */
export const BENCH_CONTEXT = { stackName: 'bench', applicationId: 'app', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false', region: 'eu-west-1' };

/** A template's resource types and how many of each, by type name: what "the same shape" compares. */
export function resourceShape(template: { Resources: Record<string, { Type: string }> }): Record<string, number> {
  const shape: Record<string, number> = {};
  for (const { Type } of Object.values(template.Resources)) shape[Type] = (shape[Type] ?? 0) + 1;
  return Object.fromEntries(Object.entries(shape).sort(([a], [b]) => a.localeCompare(b)));
}
