import type { AwsCalls } from '../clients';
import type { DeploymentFacts } from '../facts';
import { errorName, fail, type Finding, ok } from '../finding';

/**
 * The services the compliance resources need turned on in the account and region: AWS Config recording where the
 * conformance pack is deployed (a conformance pack's rules evaluate what the configuration recorder records), and
 * Security Hub where its PCI DSS standard is enabled (enabling a standard needs the hub: `InvalidAccessException`).
 */
export async function serviceChecks(facts: DeploymentFacts, aws: AwsCalls): Promise<Finding[]> {
  const findings: Finding[] = [];
  if (facts.conformancePack) {
    const statuses: any[] = (await aws.call('@aws-sdk/client-config-service', 'DescribeConfigurationRecorderStatus', {})).ConfigurationRecordersStatus ?? [];
    const recording = statuses.find((s) => s.recording === true);
    findings.push(recording
      ? ok('config', 'pciConformancePack', `AWS Config records in ${aws.region} (${recording.name})`)
      : fail('config', 'pciConformancePack', `AWS Config does not record in ${aws.region}${statuses.length > 0 ? ` (${statuses.map((s) => s.name).join(', ')} stopped)` : ' (no recorder)'}: the conformance pack's rules would evaluate nothing`,
        'turn on recording (aws configservice start-configuration-recorder, or your organisation\'s Config setup) before deploying the pack'));
  }
  if (facts.securityHubStandard) {
    try {
      const hub = await aws.call('@aws-sdk/client-securityhub', 'DescribeHub', {});
      findings.push(ok('security-hub', 'securityHubPciDss', `Security Hub is enabled in ${aws.region} (${hub.HubArn})`));
    } catch (e) {
      findings.push(fail('security-hub', 'securityHubPciDss', `Security Hub is not enabled in ${aws.region} (${errorName(e)}): its PCI DSS standard cannot be enabled`,
        'enable Security Hub (aws securityhub enable-security-hub --no-enable-default-standards, or your organisation\'s delegated administrator)'));
    }
  }
  return findings;
}
