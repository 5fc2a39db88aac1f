/**
 * How strict a deployment is. The value is also the `securityProfile` context key.
 *
 * What each profile changes is listed in the table of docs/security-profiles.md; the code that applies it lives in
 * `src/profiles/`.
 */
export enum SecurityProfile {
  /**
   * For trying things out: no NAT gateway, short log retention, resources destroyed with the stack.
   */
  DEV = 'DEV',
  /**
   * Like PRODUCTION in shape (NAT, flow logs, encrypted logs) with shorter retention. TLS recommended.
   */
  STAGING = 'STAGING',
  /**
   * Card-data environment: TLS required, one year of log retention, deletion protection, and the cdk-nag
   * AwsSolutions, PCI DSS v4.0.1 (the framework's PciDss401Checks), NIST 800-53 R5 and HIPAA packs run at synth, failing on any unacknowledged finding.
   */
  PRODUCTION = 'PRODUCTION',
}
