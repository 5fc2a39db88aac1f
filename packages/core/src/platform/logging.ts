import { ArnFormat, Lazy, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { purposeKey } from './keys';

export interface LoggingProps {
  /** `/aws/<stackName>/<runtimeType>/<securityProfile>`. */
  readonly applicationLogGroupName: string;
  readonly retention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The stack's log groups and the key that encrypts them and nothing else. Every log group is created and owned by the
 * stack, so retention and KMS encryption apply to all of them.
 */
export class Logging extends Construct {
  /** Encrypts the log groups, and CloudWatch Logs may use it for these log groups only. */
  public readonly key: kms.Key;
  /** Where the application's logs go, on both runtimes. */
  public readonly applicationLogGroup: logs.LogGroup;
  /** Its name, as plain text (the log group's own `logGroupName` is a deploy-time reference). */
  public readonly applicationLogGroupName: string;

  private readonly props: LoggingProps;
  private readonly logGroupNames: string[] = [];

  constructor(scope: Construct, id: string, props: LoggingProps) {
    super(scope, id);
    this.props = props;
    this.key = purposeKey(this, 'Key', 'logs', props.removalPolicy);
    // CloudWatch Logs may use the key only for the log groups created here: it names the log group in the encryption
    // context of every request (https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/encrypt-log-data-kms.html).
    // AWS's example also lists kms:Describe*, which carries no encryption context, so under this condition it never
    // applied (the IAM reference test says so); it is left out.
    const stack = Stack.of(this);
    this.key.addToResourcePolicy(new PolicyStatement({
      principals: [new ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
      actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: {
        ArnEquals: {
          'kms:EncryptionContext:aws:logs:arn': Lazy.list({ produce: () => this.logGroupNames.map((name) => this.logGroupArn(name)) }),
        },
      },
    }));
    this.applicationLogGroupName = props.applicationLogGroupName;
    this.applicationLogGroup = this.logGroup('Application', props.applicationLogGroupName);
  }

  /**
   * A log group's ARN as services name it (WAF's log destination, the logs key's encryption context): without the
   * `:*` suffix of the log group's own `logGroupArn`.
   */
  public logGroupArn(logGroupName: string): string {
    return Stack.of(this).formatArn({ service: 'logs', resource: 'log-group', resourceName: logGroupName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
  }

  /**
   * A log group with the profile's retention, encrypted with the stack's key, and a data-protection policy that masks
   * card numbers, expiry dates and security codes (PCI DSS 3.3, 3.4) in everything written to it.
   */
  public logGroup(id: string, logGroupName: string): logs.LogGroup {
    // Named, so that the key policy can name it (a generated name exists only once the group does).
    this.logGroupNames.push(logGroupName);
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
