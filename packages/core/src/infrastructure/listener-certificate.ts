import { aws_certificatemanager as acm, type aws_route53 as route53, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { DeploymentContext } from '../context/deployment-context';
import type { PlatformContext } from '../context/platform-context';
import { UserError } from '../errors';

/**
 * Where the certificate for an application's host name on the shared listener comes from:
 * - `covered`: the platform's covers it (`<domain>` and `*.<domain>`, one label deep);
 * - `platform`: the application names one by ARN, which the platform adds to its listener once however many
 *   applications name it. A listener's certificates are a set without counts (elbv2 `AddListenerCertificates`/
 *   `RemoveListenerCertificates`): owned by each application's stack, the first one deleted would take it from the others;
 * - `imported`: a deploy-time `certificateArn`, added by the application's stack;
 * - `created`: one created and DNS-validated in its hosted zone, added by the application's stack.
 */
export type ListenerCertificate =
  | { readonly source: 'covered' }
  | { readonly source: 'platform' | 'imported'; readonly arn: string }
  | { readonly source: 'created' };

/** Where the certificate for the application's host comes from (`ListenerCertificate`); refuses a host nothing covers. */
export function listenerCertificate(platform: PlatformContext, context: DeploymentContext, host: string): ListenerCertificate {
  const platformDomain = platform.domain;
  const arn = context.certificateArn;
  if (!context.sslEnabled) return { source: 'covered' };
  if (arn && arn !== platform.certificateArn) return { source: Token.isUnresolved(arn) ? 'imported' : 'platform', arn };
  const covered = host === platformDomain || (host.endsWith(`.${platformDomain}`) && !host.slice(0, -platformDomain.length - 1).includes('.'));
  if (covered) return { source: 'covered' };
  if (context.hostedZoneId && context.domain) return { source: 'created' };
  throw new UserError(`${context.stackName}: the platform's certificate covers ${platformDomain} and *.${platformDomain}, not ` +
    `${host}; set certificateArn (a certificate for ${host}) or hostedZoneId (one is created and validated there).`);
}

/** The certificate the application's own stack adds to the shared listener (SNI), if any (`ListenerCertificate`). */
export function certificateInStack(scope: Construct, certificate: ListenerCertificate, host: string,
  zone?: route53.IHostedZone): acm.ICertificate | undefined {
  if (certificate.source === 'imported') return acm.Certificate.fromCertificateArn(scope, 'Certificate', certificate.arn);
  if (certificate.source === 'created' && zone) {
    return new acm.Certificate(scope, 'Certificate', { domainName: host, validation: acm.CertificateValidation.fromDns(zone) });
  }
  return undefined;
}
