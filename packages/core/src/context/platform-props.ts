import type { ExistingVpc } from './existing-vpc';
import type { SecurityProfile } from '../contract/security-profile';

/**
 * How to build a platform. Each field is the context key of the same name (docs/context-keys.md); a platform reads no
 * context itself: the deployment app hands it the `platform` object of `cdk.json`.
 */
export interface PlatformProps {
  /** The profile of the platform and of every application on it (docs/security-profiles.md). @default SecurityProfile.DEV */
  readonly securityProfile?: SecurityProfile;
  /** The domain the applications' host names are under (`<subdomain>.<domain>`); applications are routed by host name. */
  readonly domain: string;
  /**
   * Route 53 hosted zone of `domain`: the platform's certificate (`<domain>` and `*.<domain>`) is DNS-validated in it,
   * and each application's record is made there.
   * @default - no DNS records; the certificate comes from `certificateArn`, or no TLS without it
   */
  readonly hostedZoneId?: string;
  /** An existing certificate for the applications' host names. @default - created in `hostedZoneId` when given */
  readonly certificateArn?: string;
  /** Subscribed to the alarm topic of every application on the platform. @default - no subscription */
  readonly alarmEmail?: string;
  /** Container Insights on the platform's cluster and its applications'. @default - false in DEV, true in STAGING and PRODUCTION */
  readonly containerInsights?: boolean;
  /** The VPC's address range. @default - the CDK's default range (`Vpc.DEFAULT_CIDR_RANGE`) */
  readonly vpcCidr?: string;
  /**
   * A VPC your network team gives you, by ids, instead of one the platform creates (docs/platform.md, "An existing
   * VPC"); it needs `dataSubnets`.
   * @default - none: the platform creates the VPC
   */
  readonly existingVpc?: ExistingVpc;
  /**
   * A Secrets Manager secret named `ecr-pullthroughcache/...` with a Docker Hub account's credential: the platform's
   * ECR pull-through cache, through which every application pulls its Docker Hub images (context key
   * `dockerHubCredentialArn`).
   * @default - no cache: applications with Docker Hub images are refused in STAGING and PRODUCTION
   */
  readonly dockerHubCredentialArn?: string;
  /**
   * Deploys AWS's PCI DSS 4.0 conformance pack with the platform's stack (context key `pciConformancePack`): one per
   * account and region, so the platform owns it and its applications may not set it.
   * @default false
   */
  readonly pciConformancePack?: boolean;
  /**
   * Enables Security Hub's PCI DSS v4.0.1 standard with the platform's stack (context key `securityHubPciDss`): once
   * per account and region, so the platform owns it and its applications may not set it.
   * @default false
   */
  readonly securityHubPciDss?: boolean;
}
