import { shownValue, UserError } from '../errors';

/**
 * What the framework tells a plugin about the EC2 deployment it is configuring.
 */
export interface Ec2Context {
  /** Name of the CloudFormation stack. */
  readonly stackName: string;
  /** `DEV`, `STAGING` or `PRODUCTION`. */
  readonly securityProfile: string;
  /** Always `EC2` when handed to `configureUserData`. */
  readonly runtimeType: string;
  /**
   * The application's log group, `/aws/<stackName>/<runtimeType>/<securityProfile>`: the one the
   * instance role may write to. Hand it to `installCloudWatchAgent`.
   */
  readonly logGroupName: string;
  /**
   * The application's own system account, which the framework creates before `configureUserData`'s commands run: named
   * `applicationId()`, holding `containerUser()`'s uid and gid (moving whoever held them, such as Amazon Linux 2023's
   * `ec2-user`, to free ids), with no password, no login shell, no group but its own and no sudo. Run the application
   * as it (systemd `User=` and `Group=`, with `NoNewPrivileges=yes`) and let it own the application's directories; the
   * data volume is owned by its ids at mount.
   */
  readonly serviceUser: string;
  /**
   * Fully qualified domain name of the application.
   * @default - no domain: the application is reached by the load balancer's own DNS name
   */
  readonly fqdn?: string;
  /** Whether users reach the application over HTTPS (TLS ends at the load balancer). */
  readonly sslEnabled: boolean;
  /**
   * Whether the application keeps data of its own (`keepsData()`): false when there is no data volume to mount.
   * @default true
   */
  readonly keepsData?: boolean;
  /** Whether the data directory is on EFS (`efsId` and `accessPointId` are then set) rather than EBS. */
  readonly hasEfs: boolean;
  /**
   * EFS file system id.
   * @default - none (required when `hasEfs` is true)
   */
  readonly efsId?: string;
  /**
   * EFS access point id.
   * @default - none (required when `hasEfs` is true)
   */
  readonly accessPointId?: string;
}

/** The two EFS identifiers a mount needs. */
export interface EfsIds {
  /** EFS file system id. */
  readonly efsId: string;
  /** EFS access point id. */
  readonly accessPointId: string;
}

/**
 * Helpers for plugins that read an `Ec2Context`.
 */
export class Ec2Contexts {
  /**
   * The EFS ids of a context whose `hasEfs` is true: fails, naming what is missing, when either is absent.
   */
  public static requireEfsIds(context: Ec2Context): EfsIds {
    if (!context.hasEfs) {
      throw new UserError('Ec2Context.hasEfs is false: there is no EFS to mount; mount the EBS volume instead (mountEbs).');
    }
    const { efsId, accessPointId } = context;
    if (!efsId || !accessPointId) {
      const missing = [efsId ? undefined : 'efsId', accessPointId ? undefined : 'accessPointId'].filter((m) => m !== undefined);
      throw new UserError(
        `Ec2Context.hasEfs is true but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing ` +
        `(efsId: ${shownValue(efsId)}, accessPointId: ${shownValue(accessPointId)}); ` +
        'both are required to mount EFS.',
      );
    }
    return { efsId, accessPointId };
  }

  private constructor() {}
}

/**
 * AWS's public parameter holding the newest Amazon Linux 2023 image (x86_64, kernel 6.1): the one CDK's
 * `MachineImage.latestAmazonLinux2023()` reads at deployment (a test reads it from a DEV template).
 */
export const AL2023_IMAGE_PARAMETER = '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64';

/** The command that reads that parameter's current image id: what the messages and docs tell a user to run. */
export const AL2023_CURRENT_IMAGE_COMMAND = `aws ssm get-parameter --name ${AL2023_IMAGE_PARAMETER} --query Parameter.Value --output text`;
