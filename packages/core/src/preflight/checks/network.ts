import type { AwsCalls } from '../clients';
import type { DeploymentFacts, GivenVpc } from '../facts';
import { fail, type Finding, ok, warn } from '../finding';

const EC2 = '@aws-sdk/client-ec2';
const KEY = 'existingVpc';

/**
 * A given VPC (`existingVpc`) as the deployment assumes it: its DNS attributes on (the private zones, interface
 * endpoints with private DNS and EC2's EFS mount by name need both: botocore's `CreateVpcEndpoint.PrivateDnsEnabled`),
 * each subnet in it in the zone stated, each route table stated associated with its subnet, and the endpoints: none
 * of the framework's colliding with the VPC's own (EC2 refuses a second interface endpoint with private DNS for a
 * service in a VPC), and with `"endpoints": "existing"` the ones docs/platform.md asks the network team for. A VPC the
 * deployment creates is not checked: nothing of it exists before.
 */
export async function networkChecks(facts: DeploymentFacts, aws: AwsCalls): Promise<Finding[]> {
  const vpc = facts.existingVpc;
  if (!vpc) return [];
  return [...await dnsAttributes(vpc, aws), ...await subnets(vpc, aws), ...await endpoints(facts, vpc, aws)];
}

async function dnsAttributes(vpc: GivenVpc, aws: AwsCalls): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [attribute, member, flag] of [['enableDnsSupport', 'EnableDnsSupport', 'enable-dns-support'], ['enableDnsHostnames', 'EnableDnsHostnames', 'enable-dns-hostnames']]) {
    const response = await aws.call(EC2, 'DescribeVpcAttribute', { VpcId: vpc.vpcId, Attribute: attribute });
    findings.push(response[member]?.Value === true
      ? ok('vpc', KEY, `${vpc.vpcId}: ${attribute} is on`)
      : fail('vpc', KEY, `${vpc.vpcId}: ${attribute} is off; the private hosted zones, the interface endpoints' private DNS and EC2's `
        + 'mount of EFS by name need it', `turn it on (the network team's VPC: ask them): aws ec2 modify-vpc-attribute --vpc-id ${vpc.vpcId} --${flag} '{"Value":true}'`));
  }
  return findings;
}

async function subnets(vpc: GivenVpc, aws: AwsCalls): Promise<Finding[]> {
  const filters = [{ Name: 'vpc-id', Values: [vpc.vpcId] }];
  const found = new Map<string, any>(((await aws.call(EC2, 'DescribeSubnets', { Filters: filters })).Subnets ?? []).map((s: any) => [s.SubnetId, s]));
  const tables: any[] = (await aws.call(EC2, 'DescribeRouteTables', { Filters: filters })).RouteTables ?? [];
  const findings: Finding[] = [];
  for (const subnet of vpc.subnets) {
    const actual = found.get(subnet.subnetId);
    if (!actual) {
      findings.push(fail('vpc', KEY, `${subnet.tier} ${subnet.subnetId} is not a subnet of ${vpc.vpcId}`, `give a subnet of ${vpc.vpcId} (aws ec2 describe-subnets --filters Name=vpc-id,Values=${vpc.vpcId})`));
      continue;
    }
    if (actual.AvailabilityZone !== subnet.availabilityZone) {
      findings.push(fail('vpc', KEY, `${subnet.tier} ${subnet.subnetId} is in ${actual.AvailabilityZone}, stated ${subnet.availabilityZone}`, `state ${actual.AvailabilityZone}, or give the subnet that is in ${subnet.availabilityZone}`));
      continue;
    }
    if (subnet.routeTableId) {
      const explicit = tables.find((t) => (t.Associations ?? []).some((a: any) => a.SubnetId === subnet.subnetId));
      const table = explicit ?? tables.find((t) => (t.Associations ?? []).some((a: any) => a.Main === true));
      if (table?.RouteTableId !== subnet.routeTableId) {
        findings.push(fail('vpc', KEY, `${subnet.tier} ${subnet.subnetId} routes through ${table?.RouteTableId ?? 'no route table'}, stated ${subnet.routeTableId}`,
          `state routeTableId ${table?.RouteTableId ?? '(none found)'} for it: the S3 gateway endpoint's route goes there`));
        continue;
      }
    }
    findings.push(ok('vpc', KEY, `${subnet.tier} ${subnet.subnetId} is in ${vpc.vpcId}, ${subnet.availabilityZone}${subnet.routeTableId ? `, routed by ${subnet.routeTableId}` : ''}`));
  }
  return findings;
}

/** What docs/platform.md ("An existing VPC") asks of the VPC's own endpoints with `"endpoints": "existing"`. */
const EXPECTED = [{ service: 'logs', type: 'Interface' }, { service: 'secretsmanager', type: 'Interface' }, { service: 's3', type: 'Gateway' }];

async function endpoints(facts: DeploymentFacts, vpc: GivenVpc, aws: AwsCalls): Promise<Finding[]> {
  const existing: any[] = ((await aws.call(EC2, 'DescribeVpcEndpoints', { Filters: [{ Name: 'vpc-id', Values: [vpc.vpcId] }] })).VpcEndpoints ?? [])
    .filter((e: any) => !['deleted', 'deleting', 'rejected', 'failed'].includes(String(e.State).toLowerCase()));
  const service = (e: any) => String(e.ServiceName).split('.').pop();
  const computeTables = vpc.subnets.filter((s) => s.tier === 'computeSubnets').map((s) => s.routeTableId).filter((t): t is string => !!t);
  const findings: Finding[] = [];
  for (const created of facts.endpoints.filter((e) => e.vpcId === vpc.vpcId)) {
    const clash = existing.find((e) => service(e) === created.service && e.VpcEndpointType === created.type
      && (created.type === 'Interface' ? e.PrivateDnsEnabled && created.privateDns : (e.RouteTableIds ?? []).some((t: string) => created.routeTableIds.includes(t))));
    findings.push(clash
      ? fail('endpoints', `${KEY}.endpoints`, `${created.stack} creates a ${created.service} ${created.type} endpoint, and ${vpc.vpcId} already has ${clash.VpcEndpointId}: `
        + (created.type === 'Interface' ? 'EC2 refuses a second one with private DNS' : 'a route table holds one route to the service'), 'set existingVpc.endpoints to "existing" (the VPC\'s own serve), or remove the other one')
      : ok('endpoints', `${KEY}.endpoints`, `${created.stack}'s ${created.service} ${created.type} endpoint meets none of ${vpc.vpcId}'s`));
  }
  if (vpc.endpoints === 'existing') {
    for (const expected of EXPECTED) {
      const there = existing.find((e) => service(e) === expected.service && e.VpcEndpointType === expected.type
        && (expected.type === 'Interface' ? e.PrivateDnsEnabled === true : computeTables.every((t) => (e.RouteTableIds ?? []).includes(t))));
      findings.push(there
        ? ok('endpoints', `${KEY}.endpoints`, `${vpc.vpcId} has its own ${expected.service} ${expected.type} endpoint, ${there.VpcEndpointId}`)
        : warn('endpoints', `${KEY}.endpoints`, `${vpc.vpcId} has no ${expected.service} ${expected.type} endpoint${expected.type === 'Interface' ? ' with private DNS' : ' on the compute route tables'}: `
          + 'those calls leave through the subnets\' route out', 'ask the network team for it (docs/platform.md, "An existing VPC"), or set existingVpc.endpoints to "create" if the framework\'s stack is the VPC\'s only one'));
    }
  }
  return findings;
}
