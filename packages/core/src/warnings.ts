import { Annotations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Every warning the framework raises, by id: `@fw/core:<name>`, the package's name as the CDK's own warnings use
 * theirs (`@aws-cdk/...`). `cdk synth` prints the id, and a user silences one with
 * `Annotations.of(scope).acknowledgeWarning('<id>')`.
 */
export const WARNING_IDS = {
  cliDefaultRegion: '@fw/core:cli-default-region',
  imageWithoutTag: '@fw/core:image-without-tag',
  keyNotUsed: '@fw/core:key-not-used',
  knownVulnerabilities: '@fw/core:known-vulnerabilities',
  loadBalancerQuota: '@fw/core:load-balancer-quota',
  localAddress: '@fw/core:local-address',
  noPrivateRoute: '@fw/core:no-private-route',
  pluginContractNotRecorded: '@fw/core:plugin-contract-not-recorded',
  scoreWorkloadMapped: '@fw/core:score-workload-mapped',
  pciConformancePackNeedsRecorder: '@fw/core:pci-conformance-pack-needs-recorder',
  placeholderDigest: '@fw/core:placeholder-digest',
  secretInEnvironment: '@fw/core:secret-in-environment',
  securityHubPciDssNeedsHub: '@fw/core:security-hub-pci-dss-needs-hub',
  wafCapacity: '@fw/core:waf-capacity',
} as const;

/** Raises the framework's warning `id` on `scope`. */
export function warn(scope: IConstruct, id: keyof typeof WARNING_IDS, message: string): void {
  Annotations.of(scope).addWarningV2(WARNING_IDS[id], message);
}
