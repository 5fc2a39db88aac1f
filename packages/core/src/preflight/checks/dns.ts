import type { AwsCalls } from '../clients';
import type { DeploymentFacts } from '../facts';
import { errorName, fail, type Finding, ok, warn } from '../finding';

const ROUTE53 = '@aws-sdk/client-route-53';
/** A certificate closer than this to its end is named (ACM renews its own; an imported one is the owner's to renew). */
const EXPIRY_WARNING_DAYS = 30;

/**
 * The names the deployment publishes: each given hosted zone (`hostedZoneId`) exists and serves the record names the
 * templates put in it and the domain a requested certificate is validated for (ACM's DNS validation writes a CNAME
 * there, which a private zone does not publish); each given certificate (`certificateArn`) is issued, in the
 * deployment's region, not near its end, and covers every name the listeners serve (a wildcard covers one label).
 */
export async function dnsChecks(facts: DeploymentFacts, aws: AwsCalls): Promise<Finding[]> {
  const findings: Finding[] = [];
  const zones = new Map<string, any>();
  const zone = async (id: string) => {
    if (!zones.has(id)) zones.set(id, await aws.call(ROUTE53, 'GetHostedZone', { Id: id }).then((r) => r.HostedZone, (e) => ({ error: errorName(e) })));
    return zones.get(id);
  };
  for (const { zoneId, names } of facts.zoneRecords) {
    const z = await zone(zoneId);
    for (const name of names) findings.push(zoneServes(z, zoneId, name, 'a record'));
  }
  for (const certificate of facts.requestedCertificates) {
    for (const zoneId of certificate.zoneIds) {
      const z = await zone(zoneId);
      const served = zoneServes(z, zoneId, certificate.domainName, 'the certificate\'s validation record');
      findings.push(served.status === 'ok' && z.Config?.PrivateZone
        ? fail('dns', 'hostedZoneId', `${zoneId} is a private zone: ACM cannot read the validation record for ${certificate.domainName} there`, 'give the public zone of the domain')
        : served);
    }
  }
  for (const certificate of facts.givenCertificates) findings.push(await certificateCheck(certificate, aws));
  return findings;
}

function zoneServes(zone: any, zoneId: string, name: string, what: string): Finding {
  if (zone?.error) {
    return zone.error === 'NoSuchHostedZone'
      ? fail('dns', 'hostedZoneId', `${zoneId} does not exist (${what} for ${name} goes there)`, 'give the id of the domain\'s hosted zone (aws route53 list-hosted-zones-by-name)')
      : warn('dns', 'hostedZoneId', `${zoneId}: ${zone.error}`, 'the deployer cannot read the zone: check it with its owner');
  }
  const domain = String(zone.Name).replace(/\.$/, '');
  return name === domain || name.endsWith(`.${domain}`)
    ? ok('dns', 'hostedZoneId', `${zoneId} (${domain}) serves ${name}`)
    : fail('dns', 'hostedZoneId', `${zoneId} is ${domain}, which does not serve ${name} (${what})`, `give the zone of ${name}, or a domain inside ${domain}`);
}

async function certificateCheck(certificate: DeploymentFacts['givenCertificates'][number], aws: AwsCalls): Promise<Finding> {
  const region = certificate.arn.split(':')[3];
  if (region !== aws.region) {
    return fail('certificate', 'certificateArn', `${certificate.arn} is in ${region}; the load balancer is in ${aws.region}`, `give a certificate of ${aws.region} (ACM certificates are regional)`);
  }
  let c: any;
  try {
    c = (await aws.call('@aws-sdk/client-acm', 'DescribeCertificate', { CertificateArn: certificate.arn })).Certificate ?? {};
  } catch (e) {
    return fail('certificate', 'certificateArn', `${certificate.arn}: ${errorName(e)}`, 'give the ARN of an issued certificate of this account and region');
  }
  if (c.Status !== 'ISSUED') return fail('certificate', 'certificateArn', `${certificate.arn} is ${c.Status}, not ISSUED`, 'complete its validation, or give an issued one');
  const uncovered = certificate.names.filter((n) => !covers([c.DomainName, ...(c.SubjectAlternativeNames ?? [])], n));
  if (uncovered.length > 0) {
    return fail('certificate', 'certificateArn', `${certificate.arn} does not cover ${uncovered.join(', ')}`, 'request one whose names include them');
  }
  const days = c.NotAfter ? (new Date(c.NotAfter).getTime() - Date.now()) / 86_400_000 : Infinity;
  return days < EXPIRY_WARNING_DAYS
    ? warn('certificate', 'certificateArn', `${certificate.arn} ends in ${Math.max(0, Math.floor(days))} days`, c.Type === 'IMPORTED' ? 'import its renewal' : 'check ACM can renew it (its validation records)')
    : ok('certificate', 'certificateArn', `${certificate.arn} is issued and covers ${certificate.names.join(', ') || 'the listeners'}`);
}

/** Whether one of a certificate's names covers `name`: equal, or a wildcard of its parent (`*.example.com`). */
export function covers(certificateNames: string[], name: string): boolean {
  return certificateNames.some((c) => c === name || (c.startsWith('*.') && name.split('.').slice(1).join('.') === c.slice(2)));
}
