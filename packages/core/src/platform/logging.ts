import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface LoggingProps {
  /** `/aws/<stackName>/<runtimeType>/<securityProfile>`. */
  readonly applicationLogGroupName: string;
  readonly retention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The stack's encryption key and its log groups. Every log group is created and owned by the stack, so retention and
 * KMS encryption apply to all of them.
 */
export class Logging extends Construct {
  /** Encrypts logs, the file system and the data volume. */
  public readonly key: kms.Key;
  /** Where the application's logs go, on both runtimes. */
  public readonly applicationLogGroup: logs.LogGroup;
  /** Its name, as plain text (the log group's own `logGroupName` is a deploy-time reference). */
  public readonly applicationLogGroupName: string;

  private readonly props: LoggingProps;

  constructor(scope: Construct, id: string, props: LoggingProps) {
    super(scope, id);
    this.props = props;
    this.key = new kms.Key(this, 'Key', {
      description: `Encrypts the logs and data of ${Stack.of(this).stackName}`,
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
      pendingWindow: Duration.days(30),
    });
    // CloudWatch Logs encrypts with the key only when the key policy lets the service in.
    this.key.grantEncryptDecrypt(new ServicePrincipal(`logs.${Stack.of(this).region}.amazonaws.com`));
    this.applicationLogGroupName = props.applicationLogGroupName;
    this.applicationLogGroup = this.logGroup('Application', props.applicationLogGroupName);
  }

  /**
   * A log group with the profile's retention, encrypted with the stack's key, and a data-protection policy that masks
   * card numbers, expiry dates and security codes (PCI DSS 3.3, 3.4) in everything written to it.
   */
  public logGroup(id: string, logGroupName?: string): logs.LogGroup {
    return new logs.LogGroup(this, id, {
      logGroupName,
      retention: this.props.retention,
      encryptionKey: this.key,
      removalPolicy: this.props.removalPolicy,
      dataProtectionPolicy: new logs.DataProtectionPolicy({
        name: 'mask-card-data',
        description: 'Masks payment-card data in every log event',
        identifiers: [
          logs.DataIdentifier.CREDITCARDNUMBER,
          logs.DataIdentifier.CREDITCARDEXPIRATION,
          logs.DataIdentifier.CREDITCARDSECURITYCODE,
        ],
      }),
    });
  }
}
