import {
  ArnFormat, aws_iam as iam, type aws_kms as kms, aws_logs as logs, Lazy, RemovalPolicy, Stack,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { purposeKey } from './keys';
import type { RuntimeType } from '../contract/runtime-type';
import type { SecurityProfile } from '../contract/security-profile';

/**
 * An application's log group: `/aws/<stackName>/<runtimeType>/<securityProfile>`. With `*` for the
 * stack name, the pattern every application's log group of that runtime and profile matches (a platform's logs key).
 */
export function applicationLogGroupName(stackName: string, runtimeType: RuntimeType, securityProfile: SecurityProfile): string {
  return `/aws/${stackName}/${runtimeType}/${securityProfile}`;
}

export interface LoggingProps {
  /** How long every log group keeps its events (the profile's). */
  readonly retention: logs.RetentionDays;
  /** Of the log groups and the logs key: kept with the stack's data in STAGING and PRODUCTION. */
  readonly removalPolicy: RemovalPolicy;
  /**
   * The key that encrypts the log groups, when another construct owns it (a `Platform`'s): that owner lets CloudWatch
   * Logs use it for `logGroupNames`.
   * @default - a key of its own, which CloudWatch Logs may use for these log groups only
   */
  readonly key?: kms.IKey;
  /**
   * Name patterns (`*` for any characters) of log groups other stacks create with this construct's key: a platform's
   * applications'. A pattern, not the names, so that the key's policy is the same whichever applications are attached:
   * a detached application's kept log group stays readable, and attaching one changes no key policy.
   * @default - the key is for the log groups created here only
   */
  readonly otherLogGroups?: string[];
}

/** The application's log group, and its name as plain text (the group's own `logGroupName` is a deploy-time reference). */
export interface ApplicationLog {
  readonly group: logs.LogGroup;
  readonly name: string;
}

/** Whether a log group name matches a pattern in which `*` stands for any characters (as ArnLike reads it). */
function matches(pattern: string, name: string): boolean {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('.*')}$`).test(name);
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
    const others = props.otherLogGroups ?? [];
    key.addToResourcePolicy(new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
      actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: {
        [others.length > 0 ? 'ArnLike' : 'ArnEquals']: {
          'kms:EncryptionContext:aws:logs:arn': Lazy.list({
            // A name a pattern covers is not listed again: the policy stays the same as such groups come and go.
            produce: () => [...this.logGroupNames.filter((name) => !others.some((pattern) => matches(pattern, name))), ...others]
              .map((name) => this.logGroupArn(name)),
          }),
        },
      },
    }));
  }

  /** The application's log group: `/aws/<stackName>/<runtimeType>/<securityProfile>`. */
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
