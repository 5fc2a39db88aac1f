import { ArnFormat, Lazy, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { purposeKey } from './keys';

export interface LoggingProps {
  readonly retention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  /**
   * The key that encrypts the log groups, when another construct owns it (a `Platform`'s): that owner lets CloudWatch
   * Logs use it for `logGroupNames`.
   * @default - a key of its own, which CloudWatch Logs may use for these log groups only
   */
  readonly key?: kms.IKey;
}

/** The application's log group, and its name as plain text (the group's own `logGroupName` is a deploy-time reference). */
export interface ApplicationLog {
  readonly group: logs.LogGroup;
  readonly name: string;
}

/**
 * The stack's log groups and the key that encrypts them and nothing else. Every log group is created and owned by the
 * stack, so retention and KMS encryption apply to all of them.
 */
export class Logging extends Construct {
  /** Encrypts the log groups, and CloudWatch Logs may use it for the log groups it is allowed for only. */
  public readonly key: kms.IKey;
  /** The names of the log groups created here, in order. */
  public readonly logGroupNames: string[] = [];

  private readonly props: LoggingProps;
  /** Log groups of other stacks the key is for (a platform's applications'). */
  private readonly allowedElsewhere: string[] = [];

  constructor(scope: Construct, id: string, props: LoggingProps) {
    super(scope, id);
    this.props = props;
    if (props.key) {
      this.key = props.key;
      return;
    }
    const key = purposeKey(this, 'Key', 'logs', props.removalPolicy);
    this.key = key;
    // CloudWatch Logs may use the key only for the log groups created here: it names the log group in the encryption
    // context of every request (https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/encrypt-log-data-kms.html).
    // AWS's example also lists kms:Describe*, which carries no encryption context, so under this condition it never
    // applied (the IAM reference test says so); it is left out.
    const stack = Stack.of(this);
    key.addToResourcePolicy(new PolicyStatement({
      principals: [new ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
      actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: {
        ArnEquals: {
          'kms:EncryptionContext:aws:logs:arn': Lazy.list({
            produce: () => [...this.logGroupNames, ...this.allowedElsewhere].map((name) => this.logGroupArn(name)),
          }),
        },
      },
    }));
  }

  /** Lets CloudWatch Logs use this construct's key for a log group another stack creates (with `key` set to it). */
  public allowLogGroup(name: string): void {
    if (this.props.key) throw new Error('allowLogGroup on a Logging whose key belongs to another construct');
    this.allowedElsewhere.push(name);
  }

  /** The application's log group: `/aws/<stackName>/<runtimeType>/<securityProfile>` (spec rule 5.3). */
  public applicationLog(name: string): ApplicationLog {
    return { group: this.logGroup('Application', name), name };
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
