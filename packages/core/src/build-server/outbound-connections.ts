import type { SonarQubeServer } from './jenkins-sonarqube';
import { ConnectionSource, type OutboundConnection } from '../contract/outbound-connection';

/**
 * The connections the build server's builds open outside the stacks, which its egress rules allow only as "tcp 443 to
 * any address": the payment-gateway key its pipeline library's `withPaymentGatewayKey` reads onto an agent (a path into
 * the cardholder data environment whenever a pipeline calls it), and SonarQube when one is configured.
 */
export function jenkinsOutboundConnections(sonarQube?: SonarQubeServer): OutboundConnection[] {
  return [
    {
      name: 'Payment-gateway key (withPaymentGatewayKey)',
      destination: 'AWS STS and Secrets Manager: the role and secret a pipeline names',
      purpose: 'a build assumes the role and reads the key onto its agent',
      from: ConnectionSource.WORKERS,
      carriesAccountData: true,
    },
    ...sonarQube ? [{
      name: 'SonarQube',
      destination: new URL(sonarQube.serverUrl).host,
      purpose: 'builds send their analysis with the token; SonarQube calls the webhook back',
      from: ConnectionSource.WORKERS,
    }] : [],
  ];
}
