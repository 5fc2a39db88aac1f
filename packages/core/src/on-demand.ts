/* eslint-disable @typescript-eslint/no-require-imports */

/**
 * The parts a deployment loads only when it uses them, so that a synth pays for what it builds: a Fargate deployment
 * does not load the EC2 runtime and its user-data builder, a standalone one neither the platform nor its attachment,
 * and only a deployment that asks for them loads the database, the workers, the private route or the compliance
 * packs (docs/benchmarks.md, "Where the rest of a process's synth time goes"). Everything else is imported as usual;
 * the PRODUCTION checks, which the platform needs too, load the same way from a layer below
 * (`compliance/compliance-checks.ts`). test/examples/module-loading.test.js checks what a Fargate deployment loads.
 */
export const onDemand = {
  ec2Runtime: (): typeof import('./runtimes/ec2') => require('./runtimes/ec2'),
  platform: (): typeof import('./platform/platform') => require('./platform/platform'),
  attachedPlatform: (): typeof import('./platform/attached-platform') => require('./platform/attached-platform'),
  database: (): typeof import('./infrastructure/database') => require('./infrastructure/database'),
  rotationRestart: (): typeof import('./infrastructure/rotation-restart') => require('./infrastructure/rotation-restart'),
  privateRoutes: (): typeof import('./platform/private-routes') => require('./platform/private-routes'),
  workers: (): typeof import('./infrastructure/workers') => require('./infrastructure/workers'),
  pciConformancePack: (): typeof import('./compliance/pci-conformance-pack') => require('./compliance/pci-conformance-pack'),
  securityHubStandard: (): typeof import('./compliance/security-hub-standard') => require('./compliance/security-hub-standard'),
};
