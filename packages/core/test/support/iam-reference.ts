/**
 * Checks the IAM policy statements of a synthesised CloudFormation template against AWS's Service Authorization
 * Reference (SAR), as `aws/iam-reference/iam-reference.json` holds it (derived by `tools/aws/iam-reference/derive.py`;
 * the README beside the JSON gives the source and how to regenerate). `iamProblems` lists every statement that grants,
 * denies or conditions something AWS would refuse or silently not honour; an empty list means none was found.
 *
 * Documents checked:
 *  - identity policies: `AWS::IAM::Policy` and `AWS::IAM::ManagedPolicy` (PolicyDocument), and the inline `Policies` of
 *    `AWS::IAM::Role`, `AWS::IAM::User` and `AWS::IAM::Group`: every rule below;
 *  - resource policies: `AWS::KMS::Key` (KeyPolicy), `AWS::EFS::FileSystem` (FileSystemPolicy), `AWS::S3::BucketPolicy`, `AWS::SNS::TopicPolicy`,
 *    `AWS::SQS::QueuePolicy` and `AWS::EC2::VPCEndpoint` (PolicyDocument): rules 1-4 (the same SAR tables apply to them: their Resource names the
 *    resource the policy is attached to, and a key policy's "*" means the key itself, both of which rule 3 accepts;
 *    rule 5 is about principals, which a resource policy names rather than is);
 *  - trust policies (`AssumeRolePolicyDocument` of a role): rules 1 and 4 only (they have no Resource: it is the role).
 * Any other IAM-like policy document (an object with a Statement of Effect/Action entries) anywhere in a template is
 * reported as not checked, so a new kind of policy cannot pass unseen. A policy document given as a JSON string is
 * parsed; one built with intrinsics is reported as unreadable. A NotAction statement gets rule 1 only (the actions it
 * excludes must exist; what it grants is the complement, which a per-service reference cannot enumerate); a
 * NotResource statement skips rule 3. Not checked at all: principals, condition values, the content of AWS managed
 * policies a role attaches (not in the template), SCPs, permission boundaries, and whether the grants are enough.
 *
 * The rules, each grounded in a concept of the SAR ("Actions, resources, and condition keys for AWS services"):
 *
 *  1. Actions. The SAR's "Actions" table of a service lists every action IAM knows for its service prefix; IAM matches
 *     action names case-insensitively, and a wildcard (`logs:*`, `s3:Get*`) stands for the actions it matches. An action
 *     (in Action or NotAction) that matches none is reported: IAM accepts the policy, but the statement never applies
 *     to anything (for NotAction: excludes nothing). A service prefix absent from the SAR is reported as such; a
 *     service or action present in the SAR but whose details the derived reference lacks is reported as "the reference
 *     lacks ...", with what to add to derive.py. `*` as a whole action, or a wildcard in the service prefix, cannot be
 *     expanded against a per-service reference and is reported as not checkable.
 *
 *  2. Actions without resource types. The "Resource types" column of an action lists the resource types it
 *     authorises against; an empty column means the action supports no resource-level permissions and only
 *     `"Resource": "*"` applies (IAM User Guide: "you must use *"). A statement that names only specific ARNs for such
 *     an action never grants (or denies) it: reported.
 *
 *  3. Resource shapes. Each resource type has an ARN pattern (the SAR's "Resource types" table). AWS evaluates a request
 *     against the ARN of a resource of one of the action's types; a statement's Resource that matches none of those
 *     patterns never matches a request for that action. For each action, at least one Resource must be able to match
 *     one of its types (or be "*"), else the statement is void for it: reported. For a wildcard action, one of the
 *     actions it expands to must be matched. A Resource that matches a type of none of the statement's actions is
 *     reported as granting nothing. Matching: the ARN is split at its first five colons (partition, service, region,
 *     account, resource); the first four segments are compared segment by segment, as IAM applies wildcards "within
 *     the individual segments of an ARN", and the resource segment as a whole; a `*` at the very end may span colons
 *     ("arn:aws:logs:*"). `*` and `?` in the statement are IAM wildcards, `${...}` policy variables match anything, and
 *     the SAR pattern's `${...}` placeholders match anything (lenient: the SAR does not say which characters a
 *     placeholder admits, so e.g. `log-group:NAME:*` matches the log-group pattern `log-group:${LogGroupName}`; this
 *     check cannot tell whether a service wants the `:*`). A Resource that is a CloudFormation intrinsic is resolved
 *     to a shape (`resolve`): `Fn::Join` and `Fn::Sub` are concatenated; pseudo parameters (`${AWS::Region}` ...) and
 *     `Ref`/`Fn::GetAtt` of the resource types in CFN_RETURN_VALUES become their documented shape, in which the parts
 *     CloudFormation fills in at deploy time (names, IDs, account, region) are wildcards confined to their ARN segment
 *     (sound: none of them can hold a colon, and the literal text around them fixes the service and resource type).
 *     Anything else (template parameters, Fn::If, Fn::Select, Fn::ImportValue, a type or attribute not in the table)
 *     is reported as "cannot resolve", never taken for a wildcard, since that could hide a Resource of the wrong type.
 *
 *  4. Condition keys. The SAR lists, per action, the condition keys each resource-type row supports, those of the
 *     action's row without a resource type, and per resource type the keys of the "Resource types" table; the
 *     service's "Condition keys" table lists every key the service defines. A key outside all of those for an action,
 *     and not a global `aws:` key, is never in that action's request context: with a positive operator (StringEquals,
 *     ArnLike, ForAnyValue:...) the condition never matches and the statement never applies; with a negated,
 *     ...IfExists, Null or ForAllValues: operator it is always true and restricts nothing. Either way: reported. Keys
 *     are compared case-insensitively, `${TagKey}`-style placeholders match any text. The tag keys `aws:RequestTag/*`,
 *     `aws:ResourceTag/*` and `aws:TagKeys` are global keys but present only where the SAR lists them for the action
 *     (the IAM User Guide: only for requests/resources that support authorization based on tags), so they are checked
 *     like a service key. The check is lenient in one way: a key is accepted if any resource type of the action
 *     supports it, whichever resource the statement names. Every other `aws:` key is accepted without checking (the derived reference has no list of global
 *     keys: a misspelt `aws:` key is not caught), and cross-service keys (e.g. `lambda:SourceFunctionArn`) are not
 *     modelled: one would be reported and needs review.
 *
 *  5. Required resource types. The SAR marks a resource type required (`*`): "if you specify a resource-level
 *     permission ARN in a statement using this action, then it must be of this type". A required type is one the
 *     request always names (for an action with several, e.g. ec2:RunInstances, each of them), so a request is allowed
 *     only if some Allow statement of the principal covers an ARN of every required type. For each role, user or group
 *     of the template whose identity policies are all in the template (no AWS managed policy, permission boundary or
 *     group membership), an action its statements grant on some of its resource types but on none of a required type
 *     is reported (AWS denies every such request). An action granted on none of its types is left to rule 3.
 */
import * as fs from 'fs';
import * as path from 'path';
import { didYouMean } from '../../src/context/did-you-mean';
import type { PlatformParameter } from '../../src/platform/platform-parameters';

// ----------------------------------------------------------------------------------------------------------------
// The reference
// ----------------------------------------------------------------------------------------------------------------

interface ResourceTypeRow { readonly required: boolean; readonly condition_keys: string[]; readonly dependent_actions: string[] }
interface ActionDetails { readonly access_level: string; readonly condition_keys: string[]; readonly resource_types: Record<string, ResourceTypeRow> }
interface ServiceReference {
  readonly service_name: string;
  readonly service_authorization_url: string;
  readonly actions: string[];
  readonly action_details: Record<string, ActionDetails>;
  readonly resource_types: Record<string, { readonly arn: string; readonly condition_keys: string[] }>;
  readonly condition_keys: Record<string, string>;
}
export interface IamReference {
  readonly provenance: Record<string, any>;
  readonly service_prefixes: string[];
  readonly services: Record<string, ServiceReference>;
}

export const REFERENCE_FILE = path.join(__dirname, '..', '..', 'aws', 'iam-reference', 'iam-reference.json');
export const IAM_REFERENCE: IamReference = JSON.parse(fs.readFileSync(REFERENCE_FILE, 'utf-8'));

// ----------------------------------------------------------------------------------------------------------------
// Glob shapes: a string as IAM (or the SAR) matches it
// ----------------------------------------------------------------------------------------------------------------

/**
 * One position of a shape: a literal character, `any` (IAM's `*`: zero or more characters), `one` (IAM's `?`), or
 * `value` (a CloudFormation value unknown at synth time, e.g. the account ID or a resource's name: zero or more
 * characters other than a colon; not an IAM wildcard, so a lone value is not `"Resource": "*"`).
 */
type Glob = { readonly c: string } | { readonly any: true } | { readonly one: true } | { readonly value: string };
type Shape = Glob[];

/** An own property of a lookup table (never Object.prototype's `constructor` & co.). */
function own<T>(table: Record<string, T> | undefined, key: string): T | undefined {
  return table !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

const isChar = (g: Glob): g is { c: string } => 'c' in g;
const isStar = (g: Glob): boolean => 'any' in g || 'value' in g;

/** A literal string of a policy: `*` and `?` are wildcards, `${...}` policy variables match anything (`${*}` etc. are escapes). */
function policyString(text: string): Shape {
  const shape: Glob[] = [];
  for (let i = 0; i < text.length; i++) {
    const escape = /^\$\{([*?$])\}/.exec(text.slice(i));
    const variable = /^\$\{[^}]+\}/.exec(text.slice(i));
    if (escape) {
      shape.push({ c: escape[1] });
      i += escape[0].length - 1;
    } else if (variable) {
      shape.push({ any: true });
      i += variable[0].length - 1;
    } else if (text[i] === '*') {
      shape.push({ any: true });
    } else if (text[i] === '?') {
      shape.push({ one: true });
    } else {
      shape.push({ c: text[i] });
    }
  }
  return shape;
}

/** A SAR ARN pattern: `${...}` placeholders (and a literal `*`, which a few patterns have) match anything. */
function sarPattern(arn: string): Shape {
  return arn.split(/(\$\{[^}]+\})/).flatMap((part): Glob[] =>
    /^\$\{.*\}$/.test(part) ? [{ any: true }] : [...part].map((c): Glob => (c === '*' ? { any: true } : { c })));
}

/** Is there a character both positions can produce? (A CloudFormation value never produces a colon.) */
function canShare(x: Glob, y: Glob): boolean {
  if (isChar(x) && isChar(y)) return x.c === y.c;
  if (isChar(x) && 'value' in y) return x.c !== ':';
  if ('value' in x && isChar(y)) return y.c !== ':';
  return true;
}

/** Can some string match both shapes? A search over pairs of positions (the product of the two automata). */
function intersects(a: Shape, b: Shape): boolean {
  const seen = new Set<number>();
  const width = b.length + 1;
  const queue: Array<[number, number]> = [[0, 0]];
  while (queue.length > 0) {
    const [i, j] = queue.pop()!;
    if (seen.has(i * width + j)) continue;
    seen.add(i * width + j);
    if (i === a.length && j === b.length) return true;
    const x = a[i];
    const y = b[j];
    if (x && isStar(x)) queue.push([i + 1, j]); // a star that matches nothing more
    if (y && isStar(y)) queue.push([i, j + 1]);
    if (!x || !y) continue;
    if (!canShare(x, y)) continue; // one character both can produce
    queue.push([isStar(x) ? i : i + 1, isStar(y) ? j : j + 1]);
  }
  return false;
}

/** An ARN's segments: split at its first five literal colons (IAM's segments; the sixth is the resource). */
function segments(shape: Shape): Shape[] {
  const parts: Shape[] = [[]];
  for (const g of shape) {
    if (parts.length < 6 && isChar(g) && g.c === ':') parts.push([]);
    else parts[parts.length - 1].push(g);
  }
  return parts;
}

const COLON: Glob = { c: ':' };

/** Can an ARN the statement names (`resource`) be an ARN of the SAR pattern? See rule 3. */
function arnMatches(resource: Shape, pattern: Shape): boolean {
  const r = segments(resource);
  const p = segments(pattern);
  if (r.length === 6) return p.length === 6 && r.every((segment, k) => intersects(segment, p[k]));
  // Fewer than six segments: only a trailing IAM `*` can stand for the rest of the ARN, colons included.
  const last = r[r.length - 1];
  if (last.length === 0 || !('any' in last[last.length - 1])) return false;
  const rest = p.slice(r.length - 1).flatMap((segment, k) => (k === 0 ? segment : [COLON, ...segment]));
  return r.slice(0, -1).every((segment, k) => p[k] !== undefined && intersects(segment, p[k])) && intersects(last, rest);
}

const isWildcardResource = (shape: Shape): boolean => shape.length === 1 && 'any' in shape[0];

function show(shape: Shape): string {
  return shape.map((g) => ('c' in g ? g.c : 'any' in g ? '*' : 'one' in g ? '?' : `<${g.value}>`)).join('');
}

// ----------------------------------------------------------------------------------------------------------------
// CloudFormation values
// ----------------------------------------------------------------------------------------------------------------

/**
 * What `Ref` and `Fn::GetAtt` return, per resource type our stacks use (from each type's "Return values" in the
 * CloudFormation User Guide). `${Name}` is a value unknown at synth time that never holds a colon (names, IDs,
 * partition, region, account); everything else is literal, and a `*` is an IAM wildcard (a log group's `Arn` ends in
 * `:*`). A Ref or attribute not listed here is reported as "cannot resolve" rather than guessed.
 */
export const CFN_RETURN_VALUES: Record<string, { readonly Ref?: string; readonly [attribute: string]: string | undefined }> = {
  'AWS::IAM::Role': { Ref: '${RoleName}', Arn: 'arn:${Partition}:iam::${Account}:role/${RoleNameWithPath}', RoleId: '${RoleId}' },
  'AWS::IAM::ManagedPolicy': { Ref: 'arn:${Partition}:iam::${Account}:policy/${PolicyNameWithPath}', PolicyArn: 'arn:${Partition}:iam::${Account}:policy/${PolicyNameWithPath}' },
  'AWS::IAM::InstanceProfile': { Ref: '${InstanceProfileName}', Arn: 'arn:${Partition}:iam::${Account}:instance-profile/${InstanceProfileNameWithPath}' },
  'AWS::Logs::LogGroup': { Ref: '${LogGroupName}', Arn: 'arn:${Partition}:logs:${Region}:${Account}:log-group:${LogGroupName}:*' },
  'AWS::ECS::Cluster': { Ref: '${ClusterName}', Arn: 'arn:${Partition}:ecs:${Region}:${Account}:cluster/${ClusterName}' },
  'AWS::ECS::TaskDefinition': {
    Ref: 'arn:${Partition}:ecs:${Region}:${Account}:task-definition/${Family}:${Revision}',
    TaskDefinitionArn: 'arn:${Partition}:ecs:${Region}:${Account}:task-definition/${Family}:${Revision}',
  },
  'AWS::ECS::Service': {
    Ref: 'arn:${Partition}:ecs:${Region}:${Account}:service/${ClusterName}/${ServiceName}',
    ServiceArn: 'arn:${Partition}:ecs:${Region}:${Account}:service/${ClusterName}/${ServiceName}',
    Name: '${ServiceName}',
  },
  'AWS::KMS::Key': { Ref: '${KeyId}', KeyId: '${KeyId}', Arn: 'arn:${Partition}:kms:${Region}:${Account}:key/${KeyId}' },
  'AWS::SecretsManager::Secret': {
    Ref: 'arn:${Partition}:secretsmanager:${Region}:${Account}:secret:${SecretName}-${RandomSuffix}',
    Id: 'arn:${Partition}:secretsmanager:${Region}:${Account}:secret:${SecretName}-${RandomSuffix}',
  },
  'AWS::EFS::FileSystem': {
    Ref: '${FileSystemId}',
    FileSystemId: '${FileSystemId}',
    Arn: 'arn:${Partition}:elasticfilesystem:${Region}:${Account}:file-system/${FileSystemId}',
  },
  'AWS::EFS::AccessPoint': {
    Ref: '${AccessPointId}',
    AccessPointId: '${AccessPointId}',
    Arn: 'arn:${Partition}:elasticfilesystem:${Region}:${Account}:access-point/${AccessPointId}',
  },
  'AWS::SNS::Topic': { Ref: 'arn:${Partition}:sns:${Region}:${Account}:${TopicName}', TopicArn: 'arn:${Partition}:sns:${Region}:${Account}:${TopicName}', TopicName: '${TopicName}' },
  'AWS::SQS::Queue': { Ref: 'https://sqs.${Region}.${URLSuffix}/${Account}/${QueueName}', Arn: 'arn:${Partition}:sqs:${Region}:${Account}:${QueueName}', QueueName: '${QueueName}' },
  'AWS::S3::Bucket': { Ref: '${BucketName}', Arn: 'arn:${Partition}:s3:::${BucketName}' },
  'AWS::Lambda::Function': { Ref: '${FunctionName}', Arn: 'arn:${Partition}:lambda:${Region}:${Account}:function:${FunctionName}' },
  'AWS::ECR::Repository': { Ref: '${RepositoryName}', Arn: 'arn:${Partition}:ecr:${Region}:${Account}:repository/${RepositoryName}' },
  'AWS::SSM::Parameter': { Ref: '${ParameterName}' },
  'AWS::EC2::VPC': { Ref: '${VpcId}', DefaultSecurityGroup: '${SecurityGroupId}' },
  'AWS::EC2::SecurityGroup': { Ref: '${SecurityGroupId}', GroupId: '${SecurityGroupId}' },
  'AWS::EC2::Volume': { Ref: '${VolumeId}', VolumeId: '${VolumeId}' },
  'AWS::AutoScaling::AutoScalingGroup': { Ref: '${AutoScalingGroupName}' },
  'AWS::RDS::DBInstance': {
    'Ref': '${DBInstanceIdentifier}',
    'MasterUserSecret.SecretArn': 'arn:${Partition}:secretsmanager:${Region}:${Account}:secret:${SecretName}-${RandomSuffix}',
  },
};

/**
 * What each parameter a platform publishes holds (src/platform/platform-parameters.ts; typed by its keys, so a new
 * parameter must be described here), as CFN_RETURN_VALUES writes values: an application's stack reads them through
 * template parameters of type `AWS::SSM::Parameter::Value<String>`, whose default is the parameter's name.
 */
const KEY_ARN = 'arn:${Partition}:kms:${Region}:${Account}:key/${KeyId}';
export const PLATFORM_PARAMETER_VALUES: Record<PlatformParameter, string> = {
  'vpc-id': '${VpcId}',
  'availability-zone-1': '${AvailabilityZone}',
  'compute-subnet-1': '${SubnetId}',
  'compute-subnet-2': '${SubnetId}',
  'data-subnet-1': '${SubnetId}',
  'data-subnet-2': '${SubnetId}',
  'listener-arn': 'arn:${Partition}:elasticloadbalancing:${Region}:${Account}:listener/app/${LoadBalancerName}/${LoadBalancerId}/${ListenerId}',
  'load-balancer-security-group-id': '${SecurityGroupId}',
  'load-balancer-dns-name': '${DnsName}',
  'load-balancer-hosted-zone-id': '${HostedZoneId}',
  'cluster-name': '${ClusterName}',
  'file-system-id': '${FileSystemId}',
  'file-system-security-group-id': '${SecurityGroupId}',
  'logs-key-arn': KEY_ARN,
  'data-key-arn': KEY_ARN,
  'alarm-topic-arn': 'arn:${Partition}:sns:${Region}:${Account}:${TopicName}',
  'namespace-id': '${NamespaceId}',
};

/** The value of a template parameter that reads a platform's parameter, or undefined for any other parameter. */
function platformParameterValue(parameter: any): string | undefined {
  if (parameter?.Type !== 'AWS::SSM::Parameter::Value<String>' || typeof parameter.Default !== 'string') return undefined;
  if (/^\/fw\/[^/]+\/applications\/[^/]+\/security-group-id$/.test(parameter.Default)) return '${SecurityGroupId}';
  const name = /^\/fw\/[^/]+\/([^/]+)$/.exec(parameter.Default)?.[1];
  return name ? own(PLATFORM_PARAMETER_VALUES, name) : undefined;
}

/** Pseudo parameters: values unknown at synth time, without colons (StackId is an ARN). */
const PSEUDO_PARAMETERS: Record<string, string> = {
  'AWS::Partition': '${AWS::Partition}',
  'AWS::Region': '${AWS::Region}',
  'AWS::AccountId': '${AWS::AccountId}',
  'AWS::URLSuffix': '${AWS::URLSuffix}',
  'AWS::StackName': '${AWS::StackName}',
  'AWS::StackId': 'arn:${AWS::Partition}:cloudformation:${AWS::Region}:${AWS::AccountId}:stack/${AWS::StackName}/${StackUuid}',
};

/** A return-value shape: `${Name}` is a CloudFormation value, everything else literal. */
function returnShape(text: string): Shape {
  return text.split(/(\$\{[^}]+\})/).flatMap((part): Glob[] => {
    const value = /^\$\{(.*)\}$/.exec(part);
    return value ? [{ value: value[1] }] : [...part].map((c): Glob => (c === '*' ? { any: true } : { c }));
  });
}

class Unresolved extends Error {}

/**
 * The shape of a CloudFormation value used as a policy string: literals as IAM reads them, `Ref`/`Fn::GetAtt` by the
 * referenced resource's type (CFN_RETURN_VALUES), pseudo parameters, `Fn::Join` and `Fn::Sub` concatenated. Anything
 * else (template parameters, Fn::If, Fn::Select, Fn::ImportValue, unknown types or attributes) throws Unresolved:
 * taking it for a wildcard could hide a Resource of the wrong type.
 */
function resolve(value: any, template: any): Shape {
  if (typeof value === 'string') return policyString(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length !== 1) {
    throw new Unresolved(`not a string or one intrinsic: ${JSON.stringify(value)}`);
  }
  const [fn, arg] = Object.entries<any>(value)[0];
  switch (fn) {
    case 'Ref': return reference(arg, undefined, template);
    case 'Fn::GetAtt': {
      const [logicalId, attribute] = typeof arg === 'string' ? arg.split(/\.(.*)/) : arg;
      return reference(logicalId, attribute, template);
    }
    case 'Fn::Join': {
      const [separator, parts] = arg;
      if (typeof separator !== 'string' || !Array.isArray(parts)) throw new Unresolved(`Fn::Join over ${JSON.stringify(parts)}`);
      return parts.flatMap((part: any, k: number) => [...(k > 0 ? policyString(separator) : []), ...resolve(part, template)]);
    }
    case 'Fn::Sub': {
      const [text, variables] = typeof arg === 'string' ? [arg, {}] : arg;
      return text.split(/(\$\{[^}]*\})/).flatMap((part: string): Shape => {
        const name = /^\$\{([^!][^}]*)\}$/.exec(part)?.[1];
        if (name === undefined) return policyString(part.replace(/^\$\{!/, '${'));
        if (own(variables ?? {}, name) !== undefined) return resolve(variables[name], template);
        const [logicalId, attribute] = name.split(/\.(.*)/);
        return reference(logicalId, attribute || undefined, template);
      });
    }
    default: throw new Unresolved(`${fn} is not resolved by this check`);
  }
}

function reference(logicalId: string, attribute: string | undefined, template: any): Shape {
  const pseudo = attribute === undefined ? own(PSEUDO_PARAMETERS, logicalId) : undefined;
  if (pseudo) return returnShape(pseudo);
  const parameter = attribute === undefined ? platformParameterValue(own<any>(template.Parameters ?? {}, logicalId)) : undefined;
  if (parameter) return returnShape(parameter);
  const resource = own<any>(template.Resources, logicalId);
  const written = attribute === undefined ? `Ref ${logicalId}` : `Fn::GetAtt ${logicalId}.${attribute}`;
  if (!resource) throw new Unresolved(`${written}: not a resource of the template (a parameter or unknown)`);
  const shape = own<string | undefined>(own(CFN_RETURN_VALUES, resource.Type) ?? {}, attribute ?? 'Ref');
  if (!shape) throw new Unresolved(`${written}: ${resource.Type}${attribute ? `.${attribute}` : ''} is not in CFN_RETURN_VALUES`);
  return returnShape(shape);
}

// ----------------------------------------------------------------------------------------------------------------
// Policy documents in a template
// ----------------------------------------------------------------------------------------------------------------

type DocumentKind = 'identity' | 'resource' | 'trust';
interface PolicyDocument {
  readonly label: string;
  readonly kind: DocumentKind;
  readonly document: any;
  /** Identity policies: who they apply to (`Role:<logical ID or name>`). */
  readonly principals: string[];
}

const RESOURCE_POLICIES: Record<string, string> = {
  'AWS::KMS::Key': 'KeyPolicy',
  'AWS::EFS::FileSystem': 'FileSystemPolicy',
  'AWS::S3::BucketPolicy': 'PolicyDocument',
  'AWS::SNS::TopicPolicy': 'PolicyDocument',
  'AWS::SQS::QueuePolicy': 'PolicyDocument',
  // An endpoint policy names the resources of the calls it lets through, as an identity policy does.
  'AWS::EC2::VPCEndpoint': 'PolicyDocument',
};
const PRINCIPAL_TYPES: Record<string, string> = { 'AWS::IAM::Role': 'Role', 'AWS::IAM::User': 'User', 'AWS::IAM::Group': 'Group' };

function principalKeys(property: 'Roles' | 'Users' | 'Groups', list: any): string[] {
  const kind = property.slice(0, -1);
  return (Array.isArray(list) ? list : []).map((p: any) => `${kind}:${typeof p === 'object' && p?.Ref ? p.Ref : JSON.stringify(p)}`);
}

/** Every policy document of the template that this check covers, and the principals whose policies it can see whole. */
function policyDocuments(template: any, problems: string[]): { documents: PolicyDocument[]; complete: Set<string> } {
  const documents: PolicyDocument[] = [];
  const incomplete = new Set<string>();
  const covered = new Set<any>();
  const managedPolicyOf = new Map<string, string[]>(); // managed policy logical ID -> principals attaching it by Ref
  for (const [logicalId, resource] of Object.entries<any>(template.Resources ?? {})) {
    const p = resource.Properties ?? {};
    const label = `${logicalId} (${resource.Type})`;
    const principalType = own(PRINCIPAL_TYPES, resource.Type);
    if (resource.Type === 'AWS::IAM::Policy' || resource.Type === 'AWS::IAM::ManagedPolicy') {
      const principals = [...principalKeys('Roles', p.Roles), ...principalKeys('Users', p.Users), ...principalKeys('Groups', p.Groups)];
      documents.push({ label, kind: 'identity', document: p.PolicyDocument, principals });
      covered.add(p.PolicyDocument);
    } else if (principalType) {
      const self = `${principalType}:${logicalId}`;
      for (const [k, inline] of (p.Policies ?? []).entries()) {
        documents.push({ label: `${label} Policies[${k}] "${inline.PolicyName}"`, kind: 'identity', document: inline.PolicyDocument, principals: [self] });
        covered.add(inline.PolicyDocument);
      }
      if (p.AssumeRolePolicyDocument) {
        documents.push({ label: `${label} AssumeRolePolicyDocument`, kind: 'trust', document: p.AssumeRolePolicyDocument, principals: [] });
        covered.add(p.AssumeRolePolicyDocument);
      }
      for (const arn of p.ManagedPolicyArns ?? []) {
        // A managed policy of the template attached by Ref is seen; any other (an AWS managed policy) is not.
        if (typeof arn === 'object' && typeof arn.Ref === 'string' && template.Resources[arn.Ref]?.Type === 'AWS::IAM::ManagedPolicy') {
          managedPolicyOf.set(arn.Ref, [...(managedPolicyOf.get(arn.Ref) ?? []), self]);
        } else {
          incomplete.add(self);
        }
      }
      if (p.PermissionsBoundary || p.Groups) incomplete.add(self); // a boundary limits, a group adds: not modelled
    } else if (own(RESOURCE_POLICIES, resource.Type)) {
      const document = p[RESOURCE_POLICIES[resource.Type]];
      if (document !== undefined) documents.push({ label, kind: 'resource', document, principals: [] }); // a key without KeyPolicy gets AWS's default
      covered.add(document);
    }
  }
  for (const [managedPolicy, principals] of managedPolicyOf) {
    const document = documents.find((d) => d.label.startsWith(`${managedPolicy} (`));
    if (document) (document.principals as string[]).push(...principals);
  }
  // An IAM-like policy anywhere else would pass unseen: report it.
  for (const [logicalId, resource] of Object.entries<any>(template.Resources ?? {})) {
    walk(resource.Properties, (node, at) => {
      if (covered.has(node)) return false;
      const statements = node?.Statement;
      const iamLike = (Array.isArray(statements) ? statements : [statements]).some((s: any) => s && typeof s === 'object' && 'Effect' in s
        && ('Action' in s || 'NotAction' in s));
      if (iamLike) {
        problems.push(`${logicalId} (${resource.Type}) ${at}: an IAM policy document this check does not cover (add ${resource.Type} to iam-reference.ts)`);
        return false;
      }
      return true;
    });
  }
  // Only principals of the template: an imported role has policies elsewhere.
  const inTemplate = (p: string): boolean => {
    const [type, id] = p.split(/:(.*)/);
    return own(PRINCIPAL_TYPES, own<any>(template.Resources, id)?.Type ?? '') === type;
  };
  return { documents, complete: new Set(documents.flatMap((d) => d.principals).filter((p) => inTemplate(p) && !incomplete.has(p))) };
}

function walk(node: any, visit: (node: any, at: string) => boolean, at = 'Properties'): void {
  if (node === null || typeof node !== 'object') return;
  if (!visit(node, at)) return;
  for (const [k, child] of Object.entries(node)) walk(child, visit, `${at}.${k}`);
}

// ----------------------------------------------------------------------------------------------------------------
// Statements
// ----------------------------------------------------------------------------------------------------------------

const asList = (value: any): any[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const globRegex = (glob: string): RegExp =>
  new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');

interface Action { readonly prefix: string; readonly name: string; readonly details: ActionDetails }
/** An Action entry as written, and the actions of the reference it stands for. */
interface WrittenAction { readonly written: string; readonly wildcard: boolean; readonly actions: Action[] }

/** Rule 1: the actions an Action/NotAction entry names, or undefined (with the problem recorded). */
function expandAction(written: any, where: string, problems: string[], negated = false): WrittenAction | undefined {
  const effect = negated ? 'IAM accepts the policy, but the NotAction excludes nothing' : 'IAM accepts the policy, but the statement never applies to it';
  if (typeof written !== 'string') {
    problems.push(`${where}: cannot resolve action ${JSON.stringify(written)}`);
    return undefined;
  }
  if (written === '*') {
    problems.push(`${where}: action "*" cannot be checked against a per-service reference`);
    return undefined;
  }
  const [prefix, name] = written.split(/:(.*)/);
  if (name === undefined || name === '') {
    problems.push(`${where}: "${written}" is not an action (service:Action)`);
    return undefined;
  }
  if (/[*?]/.test(prefix)) {
    problems.push(`${where}: "${written}" has a wildcard in its service prefix, which this check cannot expand`);
    return undefined;
  }
  const service = own(IAM_REFERENCE.services, prefix.toLowerCase());
  if (!service) {
    problems.push(IAM_REFERENCE.service_prefixes.includes(prefix.toLowerCase())
      ? `${where}: ${written}: the reference lacks service "${prefix}": add its actions to ACTIONS in tools/aws/iam-reference/derive.py and regenerate`
      : `${where}: ${written}: the SAR has no service prefix "${prefix}"${hint(prefix, IAM_REFERENCE.service_prefixes)} (${effect})`);
    return undefined;
  }
  const pattern = globRegex(name);
  const names = service.actions.filter((a) => pattern.test(a));
  if (names.length === 0) {
    problems.push(`${where}: ${written} does not exist: the SAR lists no such ${prefix} action${hint(name, service.actions)} (${effect})`);
    return undefined;
  }
  const missing = names.filter((a) => !service.action_details[a]);
  if (missing.length > 0) {
    problems.push(`${where}: ${written}: the reference lacks the details of ${missing.map((a) => `${prefix}:${a}`).join(', ')}: `
      + 'add them to ACTIONS in tools/aws/iam-reference/derive.py and regenerate');
    return undefined;
  }
  return { written, wildcard: /[*?]/.test(name), actions: names.map((a) => ({ prefix: prefix.toLowerCase(), name: a, details: service.action_details[a] })) };
}

function hint(input: string, candidates: string[]): string {
  const best = didYouMean(input, candidates);
  return best ? ` (did you mean "${best}"?)` : '';
}

const actionName = (a: Action): string => `${a.prefix}:${a.name}`;
const resourceTypes = (a: Action): string[] => Object.keys(a.details.resource_types);
const typePattern = (a: Action, type: string): Shape => sarPattern(IAM_REFERENCE.services[a.prefix].resource_types[type].arn);

/** Does the (resolved) Resource entry cover the resource type of the action? ("*" covers every type.) */
const covers = (resource: Shape, a: Action, type: string): boolean => isWildcardResource(resource) || arnMatches(resource, typePattern(a, type));

/** Rules 2 and 3 for one statement: which written actions are granted on nothing, which Resource entries grant nothing. */
function checkResources(where: string, written: WrittenAction[], resources: Shape[], problems: string[]): void {
  let reported = false;
  for (const w of written) {
    const granted = (a: Action): boolean => (resourceTypes(a).length === 0
      ? resources.some(isWildcardResource)
      : resources.some((r) => resourceTypes(a).some((t) => covers(r, a, t))));
    if (w.actions.some(granted)) continue;
    reported = true;
    const shown = resources.map((r) => `"${show(r)}"`).join(', ');
    if (!w.wildcard && resourceTypes(w.actions[0]).length === 0) {
      problems.push(`${where}: ${w.written} supports no resource types (SAR: no resource-level permissions), so only "Resource": "*" `
        + `applies; ${shown} never matches it`);
    } else if (!w.wildcard) {
      const a = w.actions[0];
      const types = resourceTypes(a).map((t) => `${t}${a.details.resource_types[t].required ? '*' : ''} (${IAM_REFERENCE.services[a.prefix].resource_types[t].arn})`);
      problems.push(`${where}: ${w.written}: no Resource matches its resource types ${types.join(', ')}: ${shown} never matches a request for it`);
    } else {
      problems.push(`${where}: ${w.written}: no Resource matches a resource type of any of its ${w.actions.length} actions: ${shown}`);
    }
  }
  if (reported) return;
  for (const r of resources) {
    const any = written.some((w) => w.actions.some((a) => resourceTypes(a).some((t) => covers(r, a, t))));
    if (!any && !isWildcardResource(r)) {
      problems.push(`${where}: Resource "${show(r)}" matches no resource type of ${written.map((w) => w.written).join(', ')}: it grants nothing`);
    }
  }
}

/** A SAR condition-key template (`aws:ResourceTag/${TagKey}`, `s3:ExistingObjectTag/<key>`, `.../tag-key`) as a regex. */
function keyRegex(template: string): RegExp {
  const parts = template.replace(/\/tag-key$/, '/${TagKey}').split(/(\$\{[^}]+\}|<[^>]+>)/);
  return new RegExp(`^${parts.map((p, k) => (k % 2 === 1 ? '.+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`, 'i');
}

/** The condition keys the SAR lists for an action: its own row, each resource-type row, and each resource type's keys. */
function supportedKeys(a: Action): string[] {
  const service = IAM_REFERENCE.services[a.prefix];
  return [
    ...a.details.condition_keys,
    ...Object.values(a.details.resource_types).flatMap((row) => row.condition_keys),
    ...resourceTypes(a).flatMap((t) => service.resource_types[t].condition_keys),
  ];
}

const TAG_KEYS = /^aws:(RequestTag\/.+|ResourceTag\/.+|TagKeys)$/i;
const NEVER_TRUE_WHEN_ABSENT = /^(ForAnyValue:)?(String(Equals|Like)(IgnoreCase)?|Numeric(Equals|LessThan|LessThanEquals|GreaterThan|GreaterThanEquals)|Date(Equals|LessThan|LessThanEquals|GreaterThan|GreaterThanEquals)|Bool|BinaryEquals|IpAddress|Arn(Equals|Like))$/i;

/** Rule 4 for one statement. */
function checkConditions(where: string, condition: any, written: WrittenAction[], problems: string[]): void {
  if (condition === undefined) return;
  if (typeof condition !== 'object' || condition === null) {
    problems.push(`${where}: cannot read Condition ${JSON.stringify(condition)}`);
    return;
  }
  for (const [operator, block] of Object.entries<any>(condition)) {
    for (const key of Object.keys(block ?? {})) {
      if (/^aws:/i.test(key) && !TAG_KEYS.test(key)) continue; // a global key (see rule 4)
      const effect = NEVER_TRUE_WHEN_ABSENT.test(operator)
        ? `${operator} on a key absent from the request never matches, so the statement never applies to it`
        : /^Null$/i.test(operator)
          ? 'Null always finds the key absent, so the condition does not depend on the request'
          : `${operator} on a key absent from the request is always true, so the condition restricts nothing`;
      for (const w of written) {
        if (w.actions.some((a) => supportedKeys(a).some((template) => keyRegex(template).test(key)))) continue;
        const prefix = key.split(':')[0].toLowerCase();
        const known = own(IAM_REFERENCE.services, prefix);
        const defined = known ? Object.keys(known.condition_keys).some((template) => keyRegex(template).test(key)) : undefined;
        const what = defined === false
          ? `condition key ${key} does not exist in the SAR for ${prefix}${hint(key, Object.keys(known!.condition_keys))}`
          : `${w.wildcard ? `none of the ${w.actions.length} actions of ${w.written} supports` : `${w.written} does not support`} condition key ${key} (SAR)`;
        problems.push(`${where}: ${what}; ${effect}`);
      }
    }
  }
}

interface Grant { readonly principals: string[]; readonly written: WrittenAction[]; readonly resources: Shape[] | 'any' }

function checkStatement(template: any, doc: PolicyDocument, statement: any, k: number, problems: string[], grants: Grant[]): void {
  const where = `${doc.label} Statement[${k}]${statement?.Sid ? ` "${statement.Sid}"` : ''}`;
  if (statement === null || typeof statement !== 'object' || Array.isArray(statement)) {
    problems.push(`${where}: cannot read statement ${JSON.stringify(statement)}`);
    return;
  }
  const negated = statement.NotAction !== undefined;
  const written = asList(negated ? statement.NotAction : statement.Action).map((a) => expandAction(a, where, problems, negated));
  if (written.length === 0) problems.push(`${where}: no Action or NotAction`);
  if (negated) return; // NotAction: the resources and conditions of the complement are not checked
  // The other rules apply to the actions rule 1 resolved (a reported one is left out).
  const actions = written.filter((w): w is WrittenAction => w !== undefined);
  if (actions.length === 0) return;

  checkConditions(where, statement.Condition, actions, problems);
  if (doc.kind === 'trust') return;
  if (statement.NotResource !== undefined) {
    if (statement.Effect === 'Allow') grants.push({ principals: doc.principals, written: actions, resources: 'any' });
    return; // NotResource: the resources it excludes are not checked
  }
  if (statement.Resource === undefined) {
    problems.push(`${where}: no Resource (IAM requires Resource or NotResource here)`);
    return;
  }
  const resources: Shape[] = [];
  let unresolved = false;
  for (const r of asList(statement.Resource)) {
    try {
      resources.push(resolve(r, template));
    } catch (e) {
      if (!(e instanceof Unresolved)) throw e;
      problems.push(`${where}: cannot resolve Resource ${JSON.stringify(r)}: ${e.message}`);
      unresolved = true;
    }
  }
  // With a Resource it cannot read, the check cannot tell what the statement grants: reported above, not guessed.
  if (!unresolved) checkResources(where, actions, resources, problems);
  if (statement.Effect === 'Allow') grants.push({ principals: doc.principals, written: actions, resources: unresolved ? 'any' : resources });
}

/** Rule 5: per principal whose policies are all in the template. */
function checkRequiredTypes(grants: Grant[], complete: Set<string>, problems: string[]): void {
  for (const principal of [...complete].sort()) {
    const mine = grants.filter((g) => g.principals.includes(principal));
    const actions = new Map<string, Action>();
    mine.forEach((g) => g.written.filter((w) => !w.wildcard).forEach((w) => actions.set(actionName(w.actions[0]), w.actions[0])));
    for (const a of actions.values()) {
      const grantsOn = (type: string): boolean => mine.some((g) => g.written.some((w) => w.actions.some((x) => actionName(x) === actionName(a)))
        && (g.resources === 'any' || g.resources.some((r) => covers(r, a, type))));
      const types = resourceTypes(a);
      if (!types.some(grantsOn)) continue; // granted on nothing: rule 3 has reported it
      for (const type of types.filter((t) => a.details.resource_types[t].required && !grantsOn(t))) {
        problems.push(`${principal}: ${actionName(a)} requires resource type ${type} (${IAM_REFERENCE.services[a.prefix].resource_types[type].arn}, `
          + 'required in the SAR, so part of every request), but no Allow statement of its policies grants it on one: AWS denies every request');
      }
    }
  }
}

/** Every IAM policy statement of a synthesised template that AWS would refuse or silently not honour (see the top of this file). */
export function iamProblems(template: any): string[] {
  const problems: string[] = [];
  const { documents, complete } = policyDocuments(template, problems);
  const grants: Grant[] = [];
  for (const doc of documents) {
    let document = doc.document;
    if (typeof document === 'string') {
      try {
        document = JSON.parse(document);
      } catch {
        problems.push(`${doc.label}: cannot read the policy document`);
        continue;
      }
    }
    if (document === null || typeof document !== 'object' || document.Statement === undefined) {
      problems.push(`${doc.label}: cannot read the policy document ${JSON.stringify(document)?.slice(0, 200)}`);
      continue;
    }
    asList(document.Statement).forEach((s, k) => checkStatement(template, doc, s, k, problems, grants));
  }
  checkRequiredTypes(grants, complete, problems);
  return problems;
}
