import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { SecurityProfile } from '../contract/security-profile';

/**
 * What a security profile changes. Every difference between DEV, STAGING and PRODUCTION is a field here, and the
 * README's "Security profiles" table is this table.
 */
export interface ProfileSettings {
  /** NAT gateways; 0 puts compute in public subnets with no public ingress (DEV only). */
  readonly natGateways: number;
  /** VPC flow logs to CloudWatch. */
  readonly flowLogs: boolean;
  /** Retention of every log group the stack creates. */
  readonly logRetention: RetentionDays;
  /** Log groups, EFS and the access-log bucket: kept or destroyed with the stack. */
  readonly removalPolicy: RemovalPolicy;
  /** Deletion protection on the load balancer. */
  readonly deletionProtection: boolean;
  /** A WAF web ACL (AWS managed rule sets) on the load balancer. */
  readonly waf: boolean;
  /** Load-balancer access logs to an S3 bucket. */
  readonly accessLogs: boolean;
  /** cdk-nag AwsSolutions, PCI DSS 3.2.1, NIST 800-53 R5 and HIPAA at synth, failing on unacknowledged findings. */
  readonly complianceChecks: boolean;
}

export const PROFILE_SETTINGS: Record<SecurityProfile, ProfileSettings> = {
  [SecurityProfile.DEV]: {
    natGateways: 0,
    flowLogs: false,
    logRetention: RetentionDays.ONE_WEEK,
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    waf: false,
    accessLogs: false,
    complianceChecks: false,
  },
  [SecurityProfile.STAGING]: {
    natGateways: 1,
    flowLogs: true,
    logRetention: RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    waf: true,
    accessLogs: true,
    complianceChecks: false,
  },
  [SecurityProfile.PRODUCTION]: {
    natGateways: 2,
    flowLogs: true,
    logRetention: RetentionDays.ONE_YEAR, // PCI DSS 10.5.1: a year of audit history
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    waf: true,
    accessLogs: true,
    complianceChecks: true,
  },
};
