import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, Platform, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { deliveredOnFargate } from './support/casc-delivery';
import { CascChecker, loadSchema } from './support/casc-schema';
import { expandDocument } from './support/casc-variables';
import { cfnValidateFindings } from './support/cfn-validate';
import { iamProblems } from './support/iam-reference';
import { countByType, FIVE, otherWiki, PLATFORM_PROPS, SynthesisedPlatform, synthPlatform, THREE } from './support/platform';
import { decide, render } from './support/policy';
import { requireInCi } from './support/shellcheck';
import { DOCKER_HUB_CREDENTIAL, applicationTask, REGION_ENV, resources } from './support/synth';
import { JENKINS_REQUEST_BODY_LIMITS } from '../src/build-server/hardening';
import { PlatformFileSystem } from '../src/infrastructure/storage';
import { PLATFORM_PARAMETERS, PRIVATE_ROUTE_PARAMETERS } from '../src/platform/platform-parameters';

/** One synth of each size, shared by every test below. */
const three = synthPlatform(THREE);
const five = synthPlatform(FIVE);
const platformTemplate = three.templates.Platform;
/** The other profiles, for the checks every profile must pass: DEV without TLS (HTTP, no NAT), STAGING with it. */
const others = {
  DEV: synthPlatform(FIVE, { domain: 'example.com' }),
  STAGING: synthPlatform(FIVE, { securityProfile: SecurityProfile.STAGING, domain: 'example.com', hostedZoneId: 'Z0123456789ABCDEFGHIJ', dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL }),
};
/** Every template of every profile, by `<profile>-<stack>`. */
const everyTemplate: Array<[string, any]> = [['PRODUCTION', five] as const, ...Object.entries(others)]
  .flatMap(([profile, synthesised]) => Object.entries<any>(synthesised.templates).map(([name, t]) => [`${profile}-${name}`, t] as [string, any]));
const applicationStacks = THREE.map((a) => a.stackName);

describe('three applications on one PRODUCTION platform, then two more', () => {
  const SHARED = ['AWS::EC2::VPC', 'AWS::ElasticLoadBalancingV2::LoadBalancer', 'AWS::EFS::FileSystem', 'AWS::KMS::Key',
    'AWS::SNS::Topic', 'AWS::EC2::NatGateway', 'AWS::EC2::EIP', 'AWS::WAFv2::WebACL', 'AWS::S3::Bucket',
    'AWS::ServiceDiscovery::PrivateDnsNamespace', 'AWS::EC2::VPCEndpoint'];

  test('together they create one VPC, one load balancer, one file system, one set of keys, one alarm topic', () => {
    const counts = countByType(three.templates);
    expect(counts).toMatchObject({
      'AWS::EC2::VPC': 1,
      'AWS::ElasticLoadBalancingV2::LoadBalancer': 2, // internet-facing, and private (docs/platform.md)
      'AWS::EFS::FileSystem': 1,
      'AWS::KMS::Key': 4, // logs, data, notifications, cached container images
      'AWS::SNS::Topic': 1,
    });
    // Nothing of these is in an application's stack.
    for (const name of applicationStacks) {
      const types = Object.values<any>(three.templates[name].Resources).map((r) => r.Type);
      expect(types.filter((t) => SHARED.includes(t))).toEqual([]);
    }
  });

  test('two more applications add none of the shared resources', () => {
    const [before, after] = [countByType(three.templates), countByType(five.templates)];
    for (const type of SHARED) expect([type, after[type]]).toEqual([type, before[type]]);
    // ... and each adds its own pieces: a listener rule on each load balancer, a log group.
    expect(after['AWS::ElasticLoadBalancingV2::ListenerRule']).toBe(10);
    expect(before['AWS::ElasticLoadBalancingV2::ListenerRule']).toBe(6);
  });

  test('no stack exports anything, and no application imports anything', () => {
    for (const [name, template] of Object.entries(five.templates)) {
      expect([name, Object.values<any>(template.Outputs ?? {}).filter((o) => o.Export)]).toEqual([name, []]);
      expect([name, JSON.stringify(template).includes('Fn::ImportValue')]).toEqual([name, false]);
    }
  });

  test('applications read every platform id from its SSM parameters, and use every parameter they declare', () => {
    const published = resources(platformTemplate, 'AWS::SSM::Parameter').map(([, p]) => p.Properties.Name);
    for (const name of applicationStacks) {
      const template = three.templates[name];
      // The framework's, besides the CDK's bootstrap version.
      const parameters = Object.entries<any>(template.Parameters ?? {})
        .filter(([, p]) => p.Type === 'AWS::SSM::Parameter::Value<String>' && p.Default.startsWith('/fw/'));
      expect(parameters.length).toBeGreaterThan(3);
      const body = JSON.stringify(template.Resources);
      for (const [id, parameter] of parameters) {
        // Published by the platform (its own, or an application's security group for allowFrom).
        expect([parameter.Default, published.includes(parameter.Default) || /\/applications\/\w+\/security-group-id$/.test(parameter.Default)])
          .toEqual([parameter.Default, true]);
        expect([id, body.includes(`"Ref":"${id}"`)]).toEqual([id, true]); // cfn-lint W2001 otherwise
      }
      // Without EBS storage the availability zones are neither read nor rendered.
      expect(body).not.toContain('Fn::GetAZs');
    }
  });

  test('every parameter the platform publishes is read by an application (PRODUCTION\'s five; the data subnets by one with a database); one no application reads is named', () => {
    const unread = (platform: any, applications: any[]) => {
      const read = new Set(applications.flatMap((t) => Object.values<any>(t.Parameters ?? {}).map((p) => p.Default)));
      return resources(platform, 'AWS::SSM::Parameter').map(([, p]) => p.Properties.Name).filter((name: string) => !read.has(name));
    };
    const applications = FIVE.map((a) => five.templates[a.stackName]);
    const published = resources(five.templates.Platform, 'AWS::SSM::Parameter').map(([, p]) => p.Properties.Name);
    // Every name of both tables under the platform's prefix, besides each application's own (its access point).
    expect(published.filter((n: string) => !n.startsWith('/fw/Platform/applications/')).sort()).toEqual([...Object.keys(PLATFORM_PARAMETERS), ...Object.keys(PRIVATE_ROUTE_PARAMETERS)].map((n) => `/fw/Platform/${n}`).sort());
    // The isolated subnets only an application with a database reads (database.test.ts); none of these five has one.
    expect(unread(five.templates.Platform, applications)).toEqual(['/fw/Platform/data-subnet-1', '/fw/Platform/data-subnet-2']);
    // Negative control: with the applications that read the private load balancer left out, its parameters are named.
    const publicOnly = applications.filter((t) => !JSON.stringify(t.Parameters ?? {}).includes('private-listener-arn'));
    expect(publicOnly.length).toBeLessThan(applications.length);
    expect(unread(five.templates.Platform, publicOnly)).toEqual(expect.arrayContaining(['/fw/Platform/private-listener-arn']));
  });

  test('each application has its own host rule, priority, log group and security group', () => {
    const rules = applicationStacks.map((name) => {
      const [[, rule]] = resources(three.templates[name], 'AWS::ElasticLoadBalancingV2::ListenerRule');
      return { name, host: rule.Properties.Conditions[0].HostHeaderConfig.Values, priority: rule.Properties.Priority };
    });
    expect(rules.map((r) => r.host)).toEqual([['ci.example.com'], ['wiki.example.com'], ['docs.example.com']]);
    expect(new Set(rules.map((r) => r.priority)).size).toBe(3);
    // Deterministic: the same on a second synth.
    expect(rules.map((r) => r.priority)).toEqual(applicationStacks.map((name) =>
      resources(five.templates[name], 'AWS::ElasticLoadBalancingV2::ListenerRule')[0][1].Properties.Priority));
    const logGroups = THREE.map((a) => resources(three.templates[a.stackName], 'AWS::Logs::LogGroup').map(([, g]) => g.Properties.LogGroupName));
    expect(logGroups).toEqual([['/aws/Jenkins/FARGATE/PRODUCTION'], ['/aws/Wiki/EC2/PRODUCTION'], ['/aws/Docs/FARGATE/PRODUCTION']]);
    for (const [i, name] of applicationStacks.entries()) {
      const template = three.templates[name];
      const groups = resources(template, 'AWS::EC2::SecurityGroup').map(([, g]) => g.Properties.GroupDescription);
      expect(groups.some((d) => d.startsWith('Application'))).toBe(true);
      // The shared load balancer's group admits no outbound traffic but what each application's stack adds for it.
      const port = [8080, 3000, 3000][i];
      expect(resources(template, 'AWS::EC2::SecurityGroupEgress').map(([, r]) => [r.Properties.FromPort, JSON.stringify(r.Properties.GroupId)]))
        .toContainEqual([port, expect.stringContaining('loadbalancersecuritygroupid')]);
    }
  });

  test('the logs key is for the applications\' log groups by their names\' pattern, the topic for the account\'s alarms', () => {
    const keys = resources(platformTemplate, 'AWS::KMS::Key').map(([, k]) => render(k.Properties.KeyPolicy));
    const logsKey = keys.find((p) => JSON.stringify(p).includes('kms:EncryptionContext:aws:logs:arn'))!;
    // What CloudWatch Logs may do (decide models no principals: the account's own statement is left out).
    const forLogs = { Statement: logsKey.Statement.filter((s: any) => String(s.Principal.Service).startsWith('logs.')) };
    const logs = (name: string) => decide(forLogs, 'kms:GenerateDataKey', {
      'kms:EncryptionContext:aws:logs:arn': `arn:aws:logs:eu-west-1:123456789012:log-group:${name}`,
    });
    // Attached, detached (kept a year), on either runtime: the same policy serves them all.
    for (const name of ['/aws/Jenkins/FARGATE/PRODUCTION', '/aws/Wiki/EC2/PRODUCTION', '/aws/Docs/FARGATE/PRODUCTION', '/aws/Gone/EC2/PRODUCTION']) {
      expect([name, logs(name)]).toEqual([name, 'Allow']);
    }
    for (const name of ['/aws/Jenkins/FARGATE/DEV', '/team/Jenkins/FARGATE/PRODUCTION', 'other']) expect([name, logs(name)]).toEqual([name, 'None']);
    const [[, topicPolicy]] = resources(platformTemplate, 'AWS::SNS::TopicPolicy');
    const publish = (account: string, alarm: string) => decide(render(topicPolicy.Properties.PolicyDocument), 'sns:Publish', {
      'aws:SourceAccount': account, 'aws:SourceArn': `arn:aws:cloudwatch:eu-west-1:${account}:alarm:${alarm}`,
    });
    expect(publish('123456789012', 'Jenkins-JenkinsFailedLogins')).toBe('Allow');
    expect(publish('123456789012', 'Gone-AnyAlarm')).toBe('Allow');
    expect(publish('210987654321', 'Jenkins-JenkinsFailedLogins')).toBe('None');
  });

  test('the data key lets EC2 Auto Scaling\'s service-linked role encrypt volumes and grant for AWS resources only, named by condition', () => {
    const keys = resources(platformTemplate, 'AWS::KMS::Key').map(([, k]) => render(k.Properties.KeyPolicy));
    const dataKey = keys.find((p) => p.Statement.some((st: any) => st.Sid === 'AutoScalingVolumes'))!;
    // Principal "*" narrowed by aws:PrincipalArn: decide models conditions, and the account's own statement is left out.
    const forOthers = { Statement: dataKey.Statement.filter((st: any) => st.Principal.AWS === '*') };
    const slr = 'arn:aws:iam::123456789012:role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling';
    const ask = (action: string, principal: string, forAwsResource?: string) =>
      decide(forOthers, action, { 'aws:PrincipalArn': principal, 'kms:GrantIsForAWSResource': forAwsResource });
    expect(ask('kms:GenerateDataKeyWithoutPlaintext', slr)).toBe('Allow');
    expect(ask('kms:CreateGrant', slr, 'true')).toBe('Allow');
    expect(ask('kms:CreateGrant', slr)).toBe('None');
    expect(ask('kms:Decrypt', 'arn:aws:iam::123456789012:role/Other')).toBe('None');
    expect(ask('kms:ScheduleKeyDeletion', slr)).toBe('None');
  });

  test('the platform\'s key policies and topic policy are the same with three applications and with five', () => {
    const policies = (t: any) => [...resources(t, 'AWS::KMS::Key').map(([id, k]) => [id, k.Properties.KeyPolicy]),
      ...resources(t, 'AWS::SNS::TopicPolicy').map(([id, p]) => [id, p.Properties.PolicyDocument])];
    expect(JSON.stringify(policies(five.templates.Platform))).toBe(JSON.stringify(policies(platformTemplate)));
  });
});

describe('the shared file system', () => {
  /** The file-system policy as the function writes it (parsed from the custom resource's call), and as resolved. */
  function fileSystemPolicy(synthesised: SynthesisedPlatform) {
    const storage = synthesised.platform.node.findChild('Storage') as PlatformFileSystem;
    const resolved = Stack.of(synthesised.platform).resolve(storage.policy.toJSON());
    const [[, writer]] = resources(synthesised.templates.Platform, 'Custom::AWS').filter(([id]) => id.startsWith('PlatformStoragePolicy'));
    const call = JSON.parse(render(writer.Properties.Create));
    expect(call).toMatchObject({ service: 'EFS', action: 'putFileSystemPolicy' });
    return { deployed: JSON.parse(call.parameters.Policy), resolved };
  }
  const { deployed: policy, resolved } = fileSystemPolicy(three);
  const roleOf = (stackName: string) => `arn:aws:iam::123456789012:role/fw/Platform/${stackName}/${stackName}-Role-ABC123`;
  const accessPointOf = (stackName: string) => {
    const [[id]] = resources(platformTemplate, 'AWS::EFS::AccessPoint').filter(([logicalId]) => logicalId.startsWith(`PlatformApplication${stackName}`));
    return `arn:aws:elasticfilesystem:eu-west-1:123456789012:access-point/<${id}>`;
  };
  const mount = (role: string, accessPoint?: string, secure = 'true', action = 'elasticfilesystem:ClientMount') => decide(policy, action, {
    'aws:PrincipalArn': role, 'aws:PrincipalAccount': '123456789012', 'aws:SecureTransport': secure, 'elasticfilesystem:AccessPointArn': accessPoint,
  });

  test('the function writes the policy the platform built, naming every access point; the file system has no policy property', () => {
    expect(policy).toEqual(render(resolved));
    const [[, fileSystem]] = resources(platformTemplate, 'AWS::EFS::FileSystem');
    expect(fileSystem.Properties.FileSystemPolicy).toBeUndefined();
    // The function's own permission: PutFileSystemPolicy on this file system only.
    const statements = resources(platformTemplate, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .filter((st: any) => st.Action === 'elasticfilesystem:PutFileSystemPolicy');
    expect(statements.map((st: any) => render(st.Resource))).toEqual(['<PlatformStorageFileSystemA7BA24EE.Arn>']);
  });

  test('one access point an application, at its efsDataPath, owned by its containerUser, kept by the platform', () => {
    expect(resources(platformTemplate, 'AWS::EFS::AccessPoint').map(([, ap]) => [ap.Properties.RootDirectory.Path, ap.Properties.PosixUser, ap.DeletionPolicy])).toEqual([
      ['/jenkins', { Uid: '1000', Gid: '1000' }, 'RetainExceptOnCreate'], ['/wiki', { Uid: '1001', Gid: '1002' }, 'RetainExceptOnCreate'],
      ['/docs', { Uid: '1001', Gid: '1002' }, 'RetainExceptOnCreate'],
    ]);
    // Deleting an application's stack deletes nothing of the file system: it holds no EFS resource.
    for (const name of applicationStacks) {
      expect(Object.values<any>(three.templates[name].Resources).filter((r) => r.Type.startsWith('AWS::EFS::'))).toEqual([]);
    }
  });

  test('the policy admits each application\'s roles through its own access point only, and nobody else', () => {
    for (const role of applicationStacks) {
      for (const accessPoint of applicationStacks) {
        for (const action of ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite']) {
          expect([role, accessPoint, action, mount(roleOf(role), accessPointOf(accessPoint), 'true', action)])
            .toEqual([role, accessPoint, action, role === accessPoint ? 'Allow' : 'Deny']);
        }
      }
      expect(mount(roleOf(role))).toBe('Deny'); // not through an access point
      expect(mount(roleOf(role), accessPointOf(role), 'false')).toBe('Deny'); // without TLS
      expect(mount(roleOf(role), accessPointOf(role), 'true', 'elasticfilesystem:ClientRootAccess')).toBe('Deny');
    }
    // A role outside the platform's applications' paths, even one named like them.
    expect(mount('arn:aws:iam::123456789012:role/Jenkins-Role-ABC123', accessPointOf('Jenkins'))).toBe('Deny');
    expect(mount('arn:aws:iam::123456789012:role/fw/Other/Jenkins/x', accessPointOf('Jenkins'))).toBe('Deny');
  });

  test('the policy is one AWS honours (aws/iam-reference), as a file system\'s policy', () => {
    const template = { Resources: { ...platformTemplate.Resources, Checked: { Type: 'AWS::EFS::FileSystem', Properties: { FileSystemPolicy: resolved } } } };
    expect(iamProblems(template)).toEqual([]);
  });

  test('the roles that mount carry their application\'s path, and are granted their own access point only', () => {
    for (const name of applicationStacks) {
      const template = three.templates[name];
      const [[roleId, role]] = resources(template, 'AWS::IAM::Role').filter(([, r]) => r.Properties.Path);
      expect(role.Properties.Path).toBe(`/fw/Platform/${name}/`); // the task or instance role; the others mount nothing
      const grants = resources(template, 'AWS::IAM::Policy').filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement).filter((st: any) => JSON.stringify(st.Action).includes('ClientMount'));
      expect(grants.map((st: any) => JSON.stringify(render(st.Condition)))).toEqual([
        expect.stringMatching(/^\{"ArnEquals":\{"elasticfilesystem:AccessPointArn":"arn:aws:elasticfilesystem:eu-west-1:123456789012:access-point\/<SsmParameterValuefwPlatformapplications\w+accesspointid\w+>"\}\}$/),
      ]);
    }
  });

  test('an application with EBS storage gets no access point, and lives in the first compute subnet\'s zone', () => {
    expect(resources(five.templates.Platform, 'AWS::EFS::AccessPoint').map(([, ap]) => ap.Properties.RootDirectory.Path))
      .toEqual(['/jenkins', '/wiki', '/docs', '/forum']);
    const [[, volume]] = resources(five.templates.Notes, 'AWS::EC2::Volume');
    expect(JSON.stringify(volume.Properties.AvailabilityZone)).toContain('SsmParameterValuefwPlatformavailabilityzone1');
  });
});

describe('between applications', () => {
  test('each Fargate application is registered in the platform\'s namespace by its applicationId', () => {
    for (const [name, id] of [['Jenkins', 'jenkins'], ['Docs', 'docs']]) {
      const [[, service]] = resources(three.templates[name], 'AWS::ServiceDiscovery::Service');
      expect(service.Properties.Name).toBe(id);
      expect(JSON.stringify(service.Properties.DnsConfig.NamespaceId)).toContain('SsmParameterValuefwPlatformnamespaceid');
    }
  });

  test('allowFrom: the docs wiki admits the build server on its port, and nothing else but the load balancers', () => {
    const template = three.templates.Docs;
    const [[groupId, group]] = resources(template, 'AWS::EC2::SecurityGroup').filter(([, g]) => g.Properties.GroupDescription.startsWith('Application'));
    const ingress = [
      ...(group.Properties.SecurityGroupIngress ?? []),
      ...resources(template, 'AWS::EC2::SecurityGroupIngress').map(([, r]) => r.Properties).filter((r) => r.GroupId?.['Fn::GetAtt']?.[0] === groupId),
    ].map((r: any) => [r.FromPort, JSON.stringify(r.SourceSecurityGroupId)]);
    expect(ingress).toEqual([
      [3000, expect.stringContaining('loadbalancersecuritygroupid')],
      [3000, expect.stringContaining('privateloadbalancersecuritygroupid')],
      [3000, expect.stringContaining('applicationsJenkinssecuritygroupid')],
    ]);
    // The build server's group may send to it: an egress rule in the docs stack.
    expect(resources(template, 'AWS::EC2::SecurityGroupEgress').map(([, r]) => [r.Properties.FromPort, JSON.stringify(r.Properties.GroupId)]))
      .toContainEqual([3000, expect.stringContaining('applicationsJenkinssecuritygroupid')]);
  });

  test('allowFrom naming an application not attached before is refused, naming what is attached', () => {
    const app = new App();
    const platform = new Platform(new Stack(app, 'P', { env: REGION_ENV }), 'Platform', { domain: 'example.com' });
    new ApplicationFactory(new Stack(app, 'A', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, new WikiSpec(), { platform, subdomain: 'a' });
    expect(() => new ApplicationFactory(new Stack(app, 'B', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, otherWiki('docs'),
      { platform, subdomain: 'b', allowFrom: [{ applicationId: 'jenkins', port: 8080 }] }))
      .toThrow('B: allowFrom names applicationId "jenkins", which is not an application attached to platform P before this one; attached: wiki. Attach it first.');
  });
});

describe('refused at synth, naming both', () => {
  function dev() {
    const app = new App();
    const platform = new Platform(new Stack(app, 'P', { env: REGION_ENV }), 'Platform', { domain: 'example.com' });
    const add = (stackName: string, spec = otherWiki(stackName.toLowerCase()), props = {}) =>
      new ApplicationFactory(new Stack(app, stackName, { env: REGION_ENV }), 'App', RuntimeType.FARGATE, spec, { platform, ...props });
    return { app, platform, add };
  }

  test('two applications with one host name', () => {
    const { add } = dev();
    add('Wiki', new WikiSpec(), { subdomain: 'wiki' });
    expect(() => add('Docs', otherWiki('docs'), { subdomain: 'wiki' })).toThrow(
      'Applications Wiki (wiki) and Docs (docs) on platform P have the same host name "wiki.example.com"; give each its own subdomain.');
  });

  test('two applications with one listener-rule priority', () => {
    const { add } = dev();
    add('Wiki', new WikiSpec(), { subdomain: 'wiki', listenerPriority: 7 });
    expect(() => add('Docs', otherWiki('docs'), { subdomain: 'docs', listenerPriority: 7 })).toThrow(
      'Applications Wiki (wiki) and Docs (docs) on platform P have the same listener-rule priority 7; set listenerPriority on one of them to a free value.');
  });

  test('an application whose profile is not its platform\'s', () => {
    const { add } = dev();
    expect(() => add('Wiki', new WikiSpec(), { subdomain: 'wiki', securityProfile: SecurityProfile.STAGING })).toThrow(
      'Application Wiki cannot attach to platform P:\n  - securityProfile: the application "STAGING", the platform "DEV"; an application runs at its platform\'s profile.');
  });

  test('an application in the platform\'s own stack, or in another region', () => {
    const app = new App();
    const platformStack = new Stack(app, 'P', { env: REGION_ENV });
    const platform = new Platform(platformStack, 'Platform', { domain: 'example.com' });
    expect(() => new ApplicationFactory(platformStack, 'App', RuntimeType.FARGATE, new WikiSpec(), { platform, subdomain: 'wiki' }))
      .toThrow('the application is in the platform\'s own stack');
    expect(() => new ApplicationFactory(new Stack(app, 'W', { env: { region: 'us-east-1' } }), 'App', RuntimeType.FARGATE, new WikiSpec(), { platform, subdomain: 'wiki' }))
      .toThrow('region: the application\'s stack "us-east-1", the platform\'s "eu-west-1"');
  });

  test('two factories in one stack', () => {
    const app = new App();
    const stack = new Stack(app, 'S', { env: REGION_ENV });
    new ApplicationFactory(stack, 'Wiki', RuntimeType.FARGATE, new WikiSpec());
    expect(() => new ApplicationFactory(stack, 'Docs', RuntimeType.FARGATE, otherWiki('docs'))).toThrow(
      'ApplicationFactory S/Docs and S/Wiki are in one stack (S)');
  });

  test('listenerPriority without a platform; a priority the load balancer would refuse', () => {
    expect(() => new ApplicationFactory(new Stack(new App(), 'S'), 'App', RuntimeType.FARGATE, new WikiSpec(), { listenerPriority: 3 }))
      .toThrow('listenerPriority and allowFrom place an application on a platform\'s shared listener');
    // The error names the construct it is about, as aws-cdk-lib's ValidationError does, and the deployment app prints it.
    let thrown: any;
    try {
      new ApplicationFactory(new Stack(new App(), 'S'), 'App', RuntimeType.FARGATE, new WikiSpec(), { listenerPriority: 3 });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toEqual(expect.objectContaining({ isUserError: true, constructPath: 'S/App' }));
    const { add } = dev();
    expect(() => add('Wiki', new WikiSpec(), { subdomain: 'wiki', listenerPriority: 50001 }))
      .toThrow('listenerPriority 50001 is not allowed; expected a whole number from 1 to 50000');
  });

  test('a platform without a domain, or PRODUCTION without TLS: every problem at once', () => {
    expect(() => new Platform(new Stack(new App(), 'P', { env: REGION_ENV }), 'Platform', { securityProfile: SecurityProfile.PRODUCTION } as any))
      .toThrow('Invalid platform P (2 problems):\n  - domain is required');
    expect(() => new Platform(new Stack(new App(), 'P', { env: REGION_ENV }), 'Platform', { ...PLATFORM_PROPS, vpcCidr: '10.20.0.1/16' }))
      .toThrow('vpcCidr "10.20.0.1/16" is not allowed; expected a private (RFC 1918) IPv4 network from /16 to /20 with no host bits set');
  });
});

test('DEV: no TLS, no NAT gateway: an HTTP listener, compute in the public subnets with a public address', () => {
  const { templates } = others.DEV;
  expect(resources(templates.Platform, 'AWS::ElasticLoadBalancingV2::Listener').map(([, l]) => l.Properties.Port)).toEqual([80]);
  expect(resources(templates.Platform, 'AWS::EC2::NatGateway')).toEqual([]);
  const [[, service]] = resources(templates.Forum, 'AWS::ECS::Service');
  expect(service.Properties.NetworkConfiguration.AwsvpcConfiguration.AssignPublicIp).toBe('ENABLED');
  expect(resources(templates.Forum, 'AWS::ElasticLoadBalancingV2::ListenerRule')[0][1].Properties.Conditions[0].HostHeaderConfig.Values)
    .toEqual(['forum.example.com']);
});

test('Container Insights on the platform\'s cluster follows its profile (containerInsights: off in DEV, on in PRODUCTION); PRODUCTION refuses it off', () => {
  const insights = (template: any) => resources(template, 'AWS::ECS::Cluster').map(([, c]) => c.Properties.ClusterSettings);
  expect(insights(others.DEV.templates.Platform)).toEqual([[{ Name: 'containerInsights', Value: 'disabled' }]]);
  expect(insights(platformTemplate)).toEqual([[{ Name: 'containerInsights', Value: 'enabled' }]]);
  expect(() => new Platform(new Stack(new App(), 'P', { env: REGION_ENV }), 'Platform', { ...PLATFORM_PROPS, containerInsights: false }))
    .toThrow('containerInsights false is not allowed with securityProfile PRODUCTION');
});

test('the VPC takes the platform\'s vpcCidr', () => {
  expect(resources(platformTemplate, 'AWS::EC2::VPC')[0][1].Properties.CidrBlock).toBe('10.20.0.0/16');
});

test('PRODUCTION: the platform\'s stack and every application\'s pass the four packs (their acknowledgements are in the templates)', () => {
  for (const [name, template] of Object.entries(three.templates)) {
    const acknowledged = Object.values<any>(template.Resources).filter((r) => r.Metadata?.cdk_nag);
    expect([name, acknowledged.length > 0]).toEqual([name, true]);
  }
});

describe('the checks every standalone stack passes, on the platform\'s stacks', () => {
  test('a failed first create keeps nothing: what a profile keeps is RetainExceptOnCreate, never Retain, in every profile', () => {
    for (const [name, template] of everyTemplate) {
      const kept = Object.entries<any>(template.Resources).filter(([, r]) => ![undefined, 'Delete', 'RetainExceptOnCreate'].includes(r.DeletionPolicy));
      expect([name, kept.map(([id, r]) => `${id}: ${r.DeletionPolicy}`)]).toEqual([name, []]);
    }
  });

  test('every IAM statement is one AWS honours (aws/iam-reference), in every profile', () => {
    for (const [name, template] of everyTemplate) {
      expect([name, resources(template, 'AWS::IAM::Policy').length + resources(template, 'AWS::IAM::Role').length > 0]).toEqual([name, true]);
      expect([name, iamProblems(template)]).toEqual([name, []]);
    }
  });

  test('the build server\'s configuration conforms to the schema of Jenkins and its plugins, every ${...} defined', () => {
    const delivered = deliveredOnFargate(three.templates.Jenkins);
    const container = applicationTask(three.templates.Jenkins).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
    expect(container.Environment).toContainEqual({ Name: 'JENKINS_URL', Value: 'https://ci.example.com' });
    expect(new CascChecker(loadSchema()).check(delivered.casc)).toEqual([]);
    expect(expandDocument(delivered.casc, delivered.environment).blanked).toEqual([]);
  });

  /** The templates, written once for the two checks below. */
  let files: string[] = [];
  beforeAll(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-cfn-lint-platform-'));
    files = everyTemplate.map(([name, template]) => {
      const file = path.join(dir, `${name}.json`);
      fs.writeFileSync(file, JSON.stringify(template, undefined, 1));
      return file;
    });
  });

  const hasCfnLint = requireInCi(spawnSync('cfn-lint', ['--version']).status === 0, 'cfn-lint');
  (hasCfnLint ? test : test.skip)('cfn-lint reports no error and no warning in any of the templates, in every profile', () => {
    // W3005 as in cfn-lint.test.ts: CDK's AwsCustomResource (the closed default security group).
    const run = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', '--', ...files], { encoding: 'utf-8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 300_000);

  test('the CDK\'s CloudFormation validation (what `cdk synth` runs) reports nothing in any of them', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(cfnValidateFindings(files)).toEqual([]);
  }, 300_000);
});

test('the platform\'s WAF lets each application\'s large bodies through on its own host only', () => {
  const acl = Object.values<any>(three.templates.Platform.Resources).find((r) => r.Type === 'AWS::WAFv2::WebACL');
  const oversized = acl.Properties.Rules.find((r: any) => r.Name === 'OversizedBodies');
  const exceptions = oversized.Statement.AndStatement.Statements[1].NotStatement.Statement.OrStatement.Statements;
  // Only the build server declares paths; each exception names its host first.
  expect(exceptions).toHaveLength(JENKINS_REQUEST_BODY_LIMITS.length);
  for (const exception of exceptions) {
    expect(exception.AndStatement.Statements[0].ByteMatchStatement).toMatchObject({
      FieldToMatch: { SingleHeader: { Name: 'host' } }, PositionalConstraint: 'EXACTLY', SearchString: 'ci.example.com',
    });
  }
});
