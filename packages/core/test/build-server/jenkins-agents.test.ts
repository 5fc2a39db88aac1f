import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { AuthMode, JenkinsSpec, JenkinsSpecProps, RuntimeType, SecurityProfile, WorkerVariables } from '../../src';
import { JENKINS_PORT } from '../../src/build-server/controller-files';
import { AGENT_DEFAULTS, AGENT_PORT } from '../../src/build-server/jenkins-agents';
import { AGENT_IMAGE } from '../../src/build-server/versions';
import { cachePrefix } from '../../src/infrastructure/docker-hub-cache';
import { DEFAULT_STUBS, runInSandbox, SANDBOX_NEEDS, sandboxUnavailable } from '../support/sandbox';
import { needing, shellcheck, shellcheckUnavailable } from '../support/shellcheck';
import { applicationTask, DOCKER_HUB_CREDENTIAL, OIDC, only, propsFor, refTarget, resources, RUNTIMES_AND_PROFILES, securityGroupId, synth, userData } from '../support/synth';
import { filesWritten } from '../support/user-data-files';

/**
 * The build agents on both runtimes and every profile: what the template gives them, what it lets the controller do
 * with them, and what the configuration tells the amazon-ecs plugin.
 */

const SIGN_IN = { authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, domain: 'example.com', alarmEmail: 'security@example.com' };

const build = (runtime: RuntimeType, profile: SecurityProfile, props: JenkinsSpecProps = {}) =>
  synth(runtime, { ...propsFor(profile), ...SIGN_IN }, new JenkinsSpec(props));

/** The workers' task definition: the one whose container is `Worker`. */
function agentTask(json: any): [string, any] {
  const found = resources(json, 'AWS::ECS::TaskDefinition')
    .filter(([, r]) => r.Properties.ContainerDefinitions.some((c: any) => c.Name === 'Worker'));
  expect(found).toHaveLength(1);
  return found[0];
}

/** Which resource (logical id) the controller's environment names for each of the workers' variables. */
function controllerVariables(runtime: RuntimeType, json: any): Record<string, any> {
  if (runtime === RuntimeType.FARGATE) {
    const app = applicationTask(json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
    return Object.fromEntries(app.Environment.map((e: any) => [e.Name, e.Value]));
  }
  // EC2: the workers' parameter, `NAME=value` a line, with CloudFormation references between the lines' text.
  const [, parameter] = resources(json, 'AWS::SSM::Parameter')[0];
  const parts: any[] = parameter.Properties.Value['Fn::Join'][1];
  const variables: Record<string, any> = {};
  let name = '';
  for (const part of parts) {
    if (typeof part !== 'string') { variables[name] = part; continue; }
    for (const line of part.split('\n')) {
      const entry = /^([A-Z_]+)=(.*)$/.exec(line);
      if (entry) { name = entry[1]; if (entry[2]) variables[name] = entry[2]; }
    }
  }
  return variables;
}

function cascOf(runtime: RuntimeType, json: any): any {
  if (runtime === RuntimeType.EC2) return YAML.parse(filesWritten(userData(json), json)['/etc/jenkins/casc/jenkins.yaml']);
  const containers = applicationTask(json).Properties.ContainerDefinitions;
  const init = containers.find((c: any) => c.Name === 'Initialization');
  const env = Object.fromEntries(init.Environment.map((e: any) => [e.Name, e.Value]));
  const index = init.Command[0].split('\n').findIndex((l: string) => l.includes("'/fw/config/jenkins.yaml'"));
  return YAML.parse(Buffer.from(env[`FW_FILE_${index}`], 'base64').toString('utf-8'));
}

describe.each(RUNTIMES_AND_PROFILES)('%s %s', (runtime, profile) => {
  const { json } = build(runtime, profile);
  const [agentTaskId, task] = agentTask(json);
  const cluster = resources(json, 'AWS::ECS::Cluster').find(([id]) => id.includes('Workers'))!;
  const groups = resources(json, 'AWS::EC2::SecurityGroup');
  const [agentGroupId, agentGroup] = groups.find(([, g]) => g.Properties.GroupDescription === 'Ephemeral workers: nothing inbound')!;
  const [controllerGroupId] = groups.find(([, g]) => /^Application (tasks|instance)/.test(g.Properties.GroupDescription))!;
  const launch = resources(json, 'AWS::IAM::Policy').find(([id]) => id.includes('LaunchPolicy'))![1].Properties;
  const statements: any[] = launch.PolicyDocument.Statement;
  const statementFor = (action: string) => statements.find((s) => [s.Action].flat().includes(action));

  test('an agent task definition from the pinned inbound-agent image, logging to the stack\'s log group', () => {
    const container = task.Properties.ContainerDefinitions[0];
    // DEV pulls from Docker Hub; STAGING and PRODUCTION through the stack's pull-through cache (docker-hub-cache.test.ts).
    if (profile === SecurityProfile.DEV) expect(container.Image).toBe(AGENT_IMAGE);
    else expect(JSON.stringify(container.Image)).toContain(`/${cachePrefix('WikiStack', DOCKER_HUB_CREDENTIAL)}/${AGENT_IMAGE}`);
    expect(AGENT_IMAGE).toMatch(/^jenkins\/inbound-agent:\d+\.v[0-9a-f_]+-\d+-jdk21$/);
    expect(task.Properties.RequiresCompatibilities).toEqual(['FARGATE']);
    expect(task.Properties.NetworkMode).toBe('awsvpc');
    expect(container.LogConfiguration.LogDriver).toBe('awslogs');
    const logGroup = refTarget(container.LogConfiguration.Options['awslogs-group']);
    const group = json.Resources[logGroup];
    expect(group.Type).toBe('AWS::Logs::LogGroup');
    // The application's log group: its card-data protection policy and the profile's retention apply to agents too.
    expect(group.Properties.LogGroupName).toBe(`/aws/WikiStack/${runtime}/${profile}`);
    expect(group.Properties.DataProtectionPolicy).toBeDefined();
    expect(group.Properties.RetentionInDays).toBeGreaterThan(0);
  });

  test('the agents\' security group admits nothing; the controller admits them on its HTTP and agent ports only, the VPC endpoints on HTTPS', () => {
    expect(agentGroup.Properties.SecurityGroupIngress ?? []).toEqual([]);
    const intoAgents = resources(json, 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => refTarget(r.Properties.GroupId) === agentGroupId);
    expect(intoAgents).toEqual([]);
    const fromAgents = resources(json, 'AWS::EC2::SecurityGroupIngress')
      .filter(([, r]) => refTarget(r.Properties.SourceSecurityGroupId) === agentGroupId)
      .map(([, r]) => [refTarget(r.Properties.GroupId), r.Properties.IpProtocol, r.Properties.FromPort, r.Properties.ToPort]);
    const endpoints = securityGroupId(json, 'VPC interface endpoints');
    expect(endpoints === undefined).toBe(profile === SecurityProfile.DEV);
    expect(fromAgents.sort()).toEqual([
      [controllerGroupId, 'tcp', AGENT_PORT, AGENT_PORT],
      [controllerGroupId, 'tcp', JENKINS_PORT, JENKINS_PORT],
      ...endpoints ? [[endpoints, 'tcp', 443, 443]] : [],
    ].sort());
    // Nothing else may reach the agent port.
    const toAgentPort = resources(json, 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => r.Properties.FromPort === AGENT_PORT);
    expect(toAgentPort).toHaveLength(1);
  });

  test('RunTask of the agent task definition only, in the agents\' cluster only; StopTask/DescribeTasks on that cluster', () => {
    const run = statementFor('ecs:RunTask');
    expect(run.Resource).toEqual({ Ref: agentTaskId });
    expect(run.Condition).toEqual({ ArnEquals: { 'ecs:cluster': { 'Fn::GetAtt': [cluster[0], 'Arn'] } } });
    const stop = statementFor('ecs:StopTask');
    expect([stop.Action].flat().sort()).toEqual(['ecs:DescribeTasks', 'ecs:StopTask']);
    expect(stop.Condition).toEqual({ ArnEquals: { 'ecs:cluster': { 'Fn::GetAtt': [cluster[0], 'Arn'] } } });
    expect(JSON.stringify(stop.Resource)).toMatch(new RegExp(`:task/",\\{"Ref":"${cluster[0]}"\\},"/\\*"`));
    expect(statementFor('ecs:TagResource').Condition).toEqual({ StringEquals: { 'ecs:CreateAction': 'RunTask' } });
  });

  test('iam:PassRole of the agents\' execution and task roles only, to ECS tasks only', () => {
    const pass = statementFor('iam:PassRole');
    expect(pass.Resource).toEqual([
      { 'Fn::GetAtt': [refTarget(task.Properties.ExecutionRoleArn), 'Arn'] },
      { 'Fn::GetAtt': [refTarget(task.Properties.TaskRoleArn), 'Arn'] },
    ]);
    expect(pass.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } });
    // The policy belongs to the controller's role (the task role on Fargate, the instance role on EC2).
    const controllerRole = runtime === RuntimeType.FARGATE
      ? refTarget(applicationTask(json).Properties.TaskRoleArn)
      : refTarget(only(json, 'AWS::IAM::InstanceProfile').Properties.Roles[0]);
    expect(launch.Roles).toEqual([{ Ref: controllerRole }]);
  });

  test('the agents\' task role has no permissions', () => {
    const role = refTarget(task.Properties.TaskRoleArn);
    const policies = resources(json, 'AWS::IAM::Policy').filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === role));
    expect(policies).toEqual([]);
    expect(json.Resources[role].Properties.ManagedPolicyArns).toBeUndefined();
  });

  test('the ecs cloud names the real cluster, task definition, subnets, security group, roles, log group and region', () => {
    const cloud = cascOf(runtime, json).jenkins.clouds[0].ecs;
    const template = cloud.templates[0];
    const variables = controllerVariables(runtime, json);
    const resolved = (value: string) => variables[/^\$\{([A-Z_]+)\}$/.exec(value)![1]];
    expect(refTarget(resolved(cloud.cluster))).toBe(cluster[0]);
    expect(resolved(template.taskDefinitionOverride)).toBe(task.Properties.Family);
    expect(refTarget(resolved(template.securityGroups))).toBe(agentGroupId);
    expect(refTarget(resolved(template.executionRole))).toBe(refTarget(task.Properties.ExecutionRoleArn));
    expect(refTarget(resolved(template.taskrole))).toBe(refTarget(task.Properties.TaskRoleArn));
    expect(resolved(template.logDriverOptions[0].value)).toBe(`/aws/WikiStack/${runtime}/${profile}`);
    expect(resolved(cloud.regionName)).toBe('eu-west-1');
    expect(resolved(template.assignPublicIp)).toBe(profile === SecurityProfile.DEV ? 'true' : 'false');
    const subnets = JSON.stringify(resolved(template.subnets));
    expect(subnets).toContain(profile === SecurityProfile.DEV ? 'LoadBalancerSubnet' : 'ComputeSubnet');
    expect(template.label).toBe('fw-agent');
    expect(template.launchType).toBe('FARGATE');
    expect(cloud.retainAgents).toBe(false);
    expect(cloud.jenkinsUrl).toBe(`http://\${${WorkerVariables.PRIVATE_HOST}}:${JENKINS_PORT}/`);
    expect(cascOf(runtime, json).jenkins.slaveAgentPort).toBe(AGENT_PORT);
  });

  test('the controller\'s private name resolves inside the VPC only', () => {
    if (runtime === RuntimeType.FARGATE) {
      const namespace = only(json, 'AWS::ServiceDiscovery::PrivateDnsNamespace').Properties;
      expect(namespace.Name).toBe('fw.internal');
      const service = only(json, 'AWS::ECS::Service').Properties;
      const registry = json.Resources[refTarget(service.ServiceRegistries[0].RegistryArn)];
      expect(registry.Properties.Name).toBe('jenkins');
      expect(controllerVariables(runtime, json)[WorkerVariables.PRIVATE_HOST]).toBe('jenkins.fw.internal');
      // The container maps the agent port too, for the agents' connection.
      const app = applicationTask(json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
      expect(app.PortMappings.map((p: any) => p.ContainerPort).sort()).toEqual([JENKINS_PORT, AGENT_PORT].sort());
    } else {
      // The instance's own private DNS name, from the instance metadata with an IMDSv2 token, into the environment file.
      const script = userData(json);
      expect(script).toContain("fw_value=$(fw_imds 'local-hostname')\ntest -n \"$fw_value\"\n" +
        `fw_env_line '/etc/fw/application.env' '${WorkerVariables.PRIVATE_HOST}' "$fw_value"`);
      expect(script).toContain('"http://169.254.169.254/latest/meta-data/$1"');
    }
  });
});

describe('settings', () => {
  test('size, image, most agents, idle minutes and label reach the task definition and the cloud', () => {
    const { json } = build(RuntimeType.FARGATE, SecurityProfile.DEV, {
      agentImage: 'registry.example.com/ci/agent:1.2.3', agentCpu: 2048, agentMemoryMiB: 8192, maxAgents: 3, agentIdleMinutes: 2, agentLabel: 'java21',
    });
    const [, task] = agentTask(json);
    expect(task.Properties).toMatchObject({ Cpu: '2048', Memory: '8192' });
    expect(task.Properties.ContainerDefinitions[0].Image).toBe('registry.example.com/ci/agent:1.2.3');
    const cloud = cascOf(RuntimeType.FARGATE, json).jenkins.clouds[0].ecs;
    expect(cloud).toMatchObject({ maxAgents: 3, retentionTimeout: 2 });
    expect(cloud.templates[0]).toMatchObject({ label: 'java21', image: 'registry.example.com/ci/agent:1.2.3' });
  });

  test(`defaults: ${AGENT_DEFAULTS.cpu} CPU units, ${AGENT_DEFAULTS.memoryMiB} MiB, ${AGENT_DEFAULTS.maxAgents} agents, ${AGENT_DEFAULTS.idleMinutes} idle minutes, label ${AGENT_DEFAULTS.label}`, () => {
    const { json } = build(RuntimeType.FARGATE, SecurityProfile.DEV);
    expect(agentTask(json)[1].Properties).toMatchObject({ Cpu: '1024', Memory: '2048' });
    expect(cascOf(RuntimeType.FARGATE, json).jenkins.clouds[0].ecs).toMatchObject({ maxAgents: 5, retentionTimeout: 5 });
  });

  test('bad settings are refused with every problem named, before anything is built', () => {
    expect(() => new JenkinsSpec({ maxAgents: 0, agentIdleMinutes: 1.5, agentLabel: 'linux && java' })).toThrow(
      'Invalid JenkinsSpec agent settings:\n' +
      '  - maxAgents 0; allowed: a whole number from 1 to 100.\n' +
      '  - agentIdleMinutes 1.5; allowed: a whole number from 1 to 60.\n' +
      '  - agentLabel "linux && java"; allowed: one Jenkins label of at most 100 characters, without white space, quotes or the label-expression operators & | ! ( ) < > = ,');
  });

  test('an agent size Fargate does not run, or an unpinnable image, is refused by the contract check', () => {
    expect(() => build(RuntimeType.FARGATE, SecurityProfile.DEV, { agentCpu: 1024, agentMemoryMiB: 1024, agentImage: 'bad image' })).toThrow(
      /ephemeralWorkers\(\)\.image "bad image"; allowed: an image reference[\s\S]*JenkinsSpec\.ephemeralWorkers\(\)\.memoryLimitMiB 1024 does not go with JenkinsSpec\.ephemeralWorkers\(\)\.cpu 1024 on Fargate; allowed: 2048 to 8192 in steps of 1024 MiB\./);
  });
});

describe('docs/build-agents.md\'s Jenkinsfile', () => {
  test('is the example the Java harness runs (jenkins/examples/Jenkinsfile, ExampleJenkinsfileTest)', () => {
    const readme = fs.readFileSync(path.join(__dirname, '../../../../docs/build-agents.md'), 'utf-8');
    const jenkinsfile = fs.readFileSync(path.join(__dirname, '../../jenkins/examples/Jenkinsfile'), 'utf-8');
    expect(readme).toContain('```groovy\n' + jenkinsfile + '```');
    expect(jenkinsfile).toContain("node('fw-agent')");
  });
});

/**
 * The EC2 boot with the workers' settings, executed in the sandbox: the whole user data the factory renders, the
 * deploy-time references filled in with example values, `aws` and `curl` stubbed as the instance would answer.
 */
needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('EC2 boot: the workers\' settings and the private name reach the environment file', () => {
  const SETTINGS = 'FW_WORKERS_CLUSTER_ARN=arn:aws:ecs:eu-west-1:123456789012:cluster/agents\nFW_WORKERS_TASK_DEFINITION=agents';
  const HOST = 'ip-10-0-1-23.eu-west-1.compute.internal';
  const { json } = build(RuntimeType.EC2, SecurityProfile.DEV);
  // Parameters are named after their logical ids; the file archives' parts answer with their values.
  const parameters = resources(json, 'AWS::SSM::Parameter');
  const script = userData(json).replace(/\{"Ref":"(\w+)"\}/g, (_ref, id: string) =>
    (/AccessPoint/.test(id) ? 'fsap-0123456789abcdef0' : /FileSystem/.test(id) ? 'fs-0123456789abcdef0'
      : parameters.some(([p]) => p === id) ? (/WorkerSettings/.test(id) ? 'CFN-WorkerSettings' : `CFN-${id}`) : `unresolved ${id}`));
  const archiveParts = parameters.filter(([id]) => /Files/.test(id))
    .map(([id, p]) => `*CFN-${id}\\ *) printf '%s\\n' '${p.Properties.Value}' ;;`).join(' ');
  const aws = (settings: string) =>
    `case "$*" in secretsmanager*) echo client-secret ;; ${archiveParts} ssm*) ${settings} ;; *) exit 2 ;; esac`;
  const curl = (imds: string) => `case "$*" in *169.254.169.254*) ${imds} ;; *) ${DEFAULT_STUBS.curl} ;; esac`;
  const IMDS_OK = `case "$*" in *api/token*) echo token ;; *local-hostname*) echo ${HOST} ;; *instance-id*) echo i-0123456789abcdef0 ;;
    *local-ipv4*) echo 10.0.1.23 ;; *) exit 22 ;; esac`;

  test('holds no unresolved reference', () => {
    expect(script).not.toMatch(/Fn::|Ref"|\$\{Token|unresolved/);
  });

  needing('shellcheck', shellcheckUnavailable()).test('has zero shellcheck findings', () => {
    expect(shellcheck(script)).toBe('');
  });

  test('the parameter\'s entries and the instance\'s private DNS name are appended, in the root-only file', () => {
    const run = runInSandbox(script, { ...DEFAULT_STUBS, aws: aws(`printf '%s\\n' ${SETTINGS.split('\n').map((l) => `'${l}'`).join(' ')}`), curl: curl(IMDS_OK) });
    expect(run.status).toBe(0);
    expect(run.calls).toContain('aws ssm get-parameter --region eu-west-1 --name CFN-WorkerSettings --query Parameter.Value --output text');
    const env = run.written('/etc/fw/application.env')!.split('\n');
    expect(env).toEqual(expect.arrayContaining([...SETTINGS.split('\n'), `${WorkerVariables.PRIVATE_HOST}="${HOST}"`]));
  });

  test.each([
    ['the parameter cannot be read', aws('echo "AccessDeniedException" >&2; exit 254'), curl(IMDS_OK)],
    ['the instance metadata does not answer', aws(`printf '%s\\n' ${SETTINGS.split('\n').map((l) => `'${l}'`).join(' ')}`), curl('exit 7')],
  ])('the boot stops when %s, before Jenkins is installed', (_case, awsStub, curlStub) => {
    const run = runInSandbox(script, { ...DEFAULT_STUBS, aws: awsStub, curl: curlStub });
    expect(run.status).not.toBe(0);
    expect(run.calls.some((c) => c.startsWith('dnf install -y jenkins'))).toBe(false);
    expect(run.log.some((l) => l.startsWith('FAILED:'))).toBe(true);
  });
});
