import * as fs from 'fs';
import * as path from 'path';
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { ApplicationFactory, AuthMode, Ec2Storage, PciDssScope, RuntimeType, SecurityProfile } from '../src';
import { WikiOidcSpec, WikiSpec } from './fixtures/wiki-spec';
import { OIDC, only, propsFor, REGION_ENV, resources, synth, TLS, userData } from './support/synth';
import { complianceFindings } from '../src/compliance/compliance-packs';
import { AUTH_MODES } from '../src/contract/auth-mode';
import { SESSION_MANAGER_ACTIONS } from '../src/runtimes/ec2';

const RUNTIMES = [RuntimeType.FARGATE, RuntimeType.EC2];
const PROFILES = [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION];
const EACH = RUNTIMES.flatMap((r) => PROFILES.map((p) => [r, p] as const));


describe('specification rule 8 (c): a fresh stack per runtime synthesises', () => {
  test.each(RUNTIMES)('%s with defaults', (runtime) => {
    const app = new App();
    const stack = new Stack(app, 'Fresh');
    new ApplicationFactory(stack, 'App', runtime, new WikiSpec());
    expect(() => app.synth()).not.toThrow();
  });
});

describe.each(EACH)('%s, %s', (runtime, profile) => {
  const { json, template } = synth(runtime, propsFor(profile));

  test('the target group uses the application port and the health-check path with its query string', () => {
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      Port: 3000,
      Protocol: 'HTTP',
      HealthCheckPath: '/healthz?ready=1',
      TargetType: runtime === RuntimeType.FARGATE ? 'ip' : 'instance',
    });
  });

  test('the application log group is /aws/<stackName>/<runtimeType>/<securityProfile>, KMS-encrypted, with the profile\'s retention', () => {
    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: `/aws/WikiStack/${runtime}/${profile}`,
      RetentionInDays: { DEV: 7, STAGING: 30, PRODUCTION: 365 }[profile],
      KmsKeyId: Match.anyValue(),
    });
    for (const [, group] of resources(json, 'AWS::Logs::LogGroup')) {
      expect(group.Properties.KmsKeyId).toBeDefined();
      expect(group.Properties.RetentionInDays).toBe({ DEV: 7, STAGING: 30, PRODUCTION: 365 }[profile]);
    }
  });

  test('every log group masks card numbers, expiry dates and security codes (data-protection policy)', () => {
    const groups = resources(json, 'AWS::Logs::LogGroup');
    expect(groups.length).toBeGreaterThan(0);
    for (const [, group] of groups) {
      const statements = group.Properties.DataProtectionPolicy.Statement;
      const audit = statements.find((st: any) => st.Operation.Audit);
      const deidentify = statements.find((st: any) => st.Operation.Deidentify);
      const identifiers = (st: any) => st.DataIdentifier.map((d: any) => d['Fn::Join'][1][2]);
      for (const statement of [audit, deidentify]) {
        expect(identifiers(statement)).toEqual([
          ':dataprotection::aws:data-identifier/CreditCardNumber',
          ':dataprotection::aws:data-identifier/CreditCardExpiration',
          ':dataprotection::aws:data-identifier/CreditCardSecurityCode',
        ]);
      }
      expect(deidentify.Operation.Deidentify).toEqual({ MaskConfig: {} });
    }
  });

  test('the EFS access point is owned by containerUser() with efsPermissions() at efsDataPath()', () => {
    template.hasResourceProperties('AWS::EFS::AccessPoint', {
      PosixUser: { Uid: '1001', Gid: '1002' },
      RootDirectory: { Path: '/wiki', CreationInfo: { OwnerUid: '1001', OwnerGid: '1002', Permissions: '750' } },
    });
    template.hasResourceProperties('AWS::EFS::FileSystem', { Encrypted: true, KmsKeyId: Match.anyValue() });
  });

  test('the application admits its port from the load balancer only', () => {
    const lbGroup = resources(json, 'AWS::EC2::SecurityGroup').find(([id]) => id.includes('LoadBalancer'))![0];
    const appIngress = [
      ...resources(json, 'AWS::EC2::SecurityGroupIngress').map(([, r]) => r.Properties),
      ...resources(json, 'AWS::EC2::SecurityGroup').flatMap(([, r]) => r.Properties.SecurityGroupIngress ?? []),
    ].filter((rule: any) => rule.FromPort === 3000);
    expect(appIngress.length).toBeGreaterThan(0);
    for (const rule of appIngress) {
      expect(rule.CidrIp).toBeUndefined();
      expect(rule.SourceSecurityGroupId).toEqual({ 'Fn::GetAtt': [lbGroup, 'GroupId'] });
    }
  });

  test('NAT gateways, flow logs, WAF and deletion protection follow the profile', () => {
    expect(resources(json, 'AWS::EC2::NatGateway')).toHaveLength({ DEV: 0, STAGING: 1, PRODUCTION: 2 }[profile]);
    expect(resources(json, 'AWS::EC2::FlowLog')).toHaveLength(profile === SecurityProfile.DEV ? 0 : 1);
    expect(resources(json, 'AWS::WAFv2::WebACLAssociation')).toHaveLength(profile === SecurityProfile.DEV ? 0 : 1);
    const attributes = only(json, 'AWS::ElasticLoadBalancingV2::LoadBalancer').Properties.LoadBalancerAttributes;
    expect(attributes).toEqual(expect.arrayContaining([
      { Key: 'deletion_protection.enabled', Value: String(profile === SecurityProfile.PRODUCTION) },
      { Key: 'routing.http.drop_invalid_header_fields.enabled', Value: 'true' },
    ]));
  });

  test('no subnet hands out public IPs by itself', () => {
    for (const [, subnet] of resources(json, 'AWS::EC2::Subnet')) {
      expect(subnet.Properties.MapPublicIpOnLaunch).toBe(false);
    }
  });
});

describe('FARGATE', () => {
  const { template, json } = synth(RuntimeType.FARGATE);

  test('the task runs the plugin\'s image as its user, with its port, environment and EFS volume', () => {
    const container = only(json, 'AWS::ECS::TaskDefinition').Properties.ContainerDefinitions[0];
    expect(container).toMatchObject({
      Image: 'ghcr.io/example/wiki:1.4.2@sha256:3333333333333333333333333333333333333333333333333333333333333333',
      User: '1001:1002',
      PortMappings: [{ ContainerPort: 3000, Protocol: 'tcp' }],
      MountPoints: [{ SourceVolume: 'wiki-data', ContainerPath: '/srv/wiki-data', ReadOnly: false }],
      LogConfiguration: { LogDriver: 'awslogs' },
    });
    expect(container.Environment).toEqual([{ Name: 'WIKI_PUBLIC_URL', Value: 'http://localhost:3000' }]);
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      Volumes: [{
        Name: 'wiki-data',
        EFSVolumeConfiguration: Match.objectLike({ TransitEncryption: 'ENABLED', AuthorizationConfig: Match.objectLike({ IAM: 'ENABLED' }) }),
      }],
    });
  });

  test('the service never runs two tasks against one data directory and rolls back a failed deployment', () => {
    template.hasResourceProperties('AWS::ECS::Service', {
      DesiredCount: 1,
      DeploymentConfiguration: { MaximumPercent: 100, MinimumHealthyPercent: 0, DeploymentCircuitBreaker: { Enable: true, Rollback: true } },
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'ENABLED' }) },
    });
  });

  test('with NAT (STAGING) tasks get no public IP', () => {
    synth(RuntimeType.FARGATE, { securityProfile: SecurityProfile.STAGING }).template.hasResourceProperties('AWS::ECS::Service', {
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'DISABLED' }) },
    });
  });
});

describe('EC2', () => {
  const { template, json } = synth(RuntimeType.EC2);

  test('an Auto Scaling group of one with a launch template, Amazon Linux 2023 resolved at deploy time, IMDSv2', () => {
    template.hasResourceProperties('AWS::AutoScaling::AutoScalingGroup', { MinSize: '1', MaxSize: '1', LaunchTemplate: Match.anyValue() });
    const data = only(json, 'AWS::EC2::LaunchTemplate').Properties.LaunchTemplateData;
    expect(data.MetadataOptions).toMatchObject({ HttpTokens: 'required', HttpPutResponseHopLimit: 1 });
    expect(JSON.stringify(data.ImageId)).toContain('SsmParameterValueawsserviceamiamazonlinuxlatestal2023');
    expect(Object.keys(json.Parameters).some((p) => p.includes('al2023'))).toBe(true);
  });

  test('every disk is encrypted, under the data key; with EFS there is no data volume', () => {
    const disks = only(json, 'AWS::EC2::LaunchTemplate').Properties.LaunchTemplateData.BlockDeviceMappings;
    expect(disks).toEqual([{ DeviceName: '/dev/xvda', Ebs: { Encrypted: true, KmsKeyId: { 'Fn::GetAtt': ['AppDataKey4DBDC6B8', 'Arn'] }, VolumeSize: 30, VolumeType: 'gp3' } }]);
  });

  test('with ec2Storage ebs: no file system, the data volume attached at ebsDeviceName() and mounted by the user data', () => {
    const ebs = synth(RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS });
    const disks = only(ebs.json, 'AWS::EC2::LaunchTemplate').Properties.LaunchTemplateData.BlockDeviceMappings;
    expect(disks).toEqual([{ DeviceName: '/dev/xvda', Ebs: { Encrypted: true, KmsKeyId: { 'Fn::GetAtt': ['AppDataKey4DBDC6B8', 'Arn'] }, VolumeSize: 30, VolumeType: 'gp3' } }]);
    expect(resources(ebs.json, 'AWS::EFS::FileSystem')).toHaveLength(0);
    const script = userData(ebs.json);
    const [volumeId] = resources(ebs.json, 'AWS::EC2::Volume')[0];
    // The framework attaches before the plugin's first step mounts.
    expect(script).toContain(`fw_attach_ebs '{"Ref":"${volumeId}"}' '/dev/xvdf' 'eu-west-1'`);
    expect(script.indexOf('fw_attach_ebs \'')).toBeLessThan(script.indexOf("fw_mount_ebs '/dev/xvdf' '/srv/wiki' '1001' '1002'"));
  });

  test('the user data is the plugin\'s, through the framework\'s builder, with the EFS ids resolved at deploy time', () => {
    const script = userData(json);
    expect(script.startsWith('#!/bin/bash\n')).toBe(true);
    expect(script).toMatch(/fw_mount_efs '\{"Ref":"AppStorageFileSystem[0-9A-F]+"\}' '\{"Ref":"AppStorageFileSystemAccessPoint[0-9A-F]+"\}' '\/srv\/wiki' '1001' '1002'/);
    expect(script).toContain('"log_group_name": "/aws/WikiStack/EC2/DEV"');
  });

  test('the instance role may write to its log group and mount its file system, nothing broader; in DEV, Session Manager\'s sessions', () => {
    const statements = resources(json, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    expect(statements).toEqual(expect.arrayContaining([
      expect.objectContaining({ Action: ['logs:CreateLogStream', 'logs:PutLogEvents'] }),
      expect.objectContaining({ Action: ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite'] }),
    ]));
    // The one statement on every resource: the agent's own channel actions, which take no resource (DEV's sessionManager).
    const everywhere = statements.filter((s: any) => s.Resource === '*');
    expect(everywhere).toEqual([expect.objectContaining({ Action: SESSION_MANAGER_ACTIONS })]);
    const production = synth(RuntimeType.EC2, { ...propsFor(SecurityProfile.PRODUCTION), alarmEmail: 'a@example.com' }).json;
    for (const s of resources(production, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement)) {
      expect(s.Action).not.toEqual(expect.arrayContaining(['ssmmessages:OpenDataChannel']));
    }
  });

  test('the group replaces its instance without running two side by side', () => {
    template.hasResource('AWS::AutoScaling::AutoScalingGroup', {
      UpdatePolicy: { AutoScalingRollingUpdate: { MaxBatchSize: 1, MinInstancesInService: 0 } },
    });
  });
});

describe.each(RUNTIMES)('listeners on %s', (runtime) => {
  test('with TLS: HTTPS on 443 with a TLS 1.2+ policy and a DNS-validated certificate, HTTP redirected, a DNS record', () => {
    const { template, json } = synth(runtime, TLS);
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', {
      Port: 443, Protocol: 'HTTPS', SslPolicy: 'ELBSecurityPolicy-TLS13-1-2-Res-PQ-2025-09', Certificates: [{ CertificateArn: Match.anyValue() }],
    });
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', {
      Port: 80,
      Protocol: 'HTTP',
      DefaultActions: [{ Type: 'redirect', RedirectConfig: { Protocol: 'HTTPS', Port: '443', StatusCode: 'HTTP_301' } }],
    });
    template.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: 'wiki.example.com',
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: 'wiki.example.com', HostedZoneId: 'Z0123456789ABCDEFGHIJ' }],
    });
    template.hasResourceProperties('AWS::Route53::RecordSet', { Name: 'wiki.example.com.', Type: 'A', HostedZoneId: 'Z0123456789ABCDEFGHIJ' });
    expect(resources(json, 'AWS::ElasticLoadBalancingV2::Listener')).toHaveLength(2);
  });

  test('with an imported certificate and no zone: no certificate and no DNS record are created', () => {
    const arn = 'arn:aws:acm:eu-west-1:123456789012:certificate/12345678-1234-1234-1234-123456789012';
    const { template, json } = synth(runtime, { sslEnabled: true, domain: 'example.com', certificateArn: arn });
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', { Port: 443, Certificates: [{ CertificateArn: arn }] });
    expect(resources(json, 'AWS::CertificateManager::Certificate')).toHaveLength(0);
    expect(resources(json, 'AWS::Route53::RecordSet')).toHaveLength(0);
  });

  test('without TLS: one HTTP listener forwarding to the application', () => {
    const { json } = synth(runtime);
    const [[, listener]] = resources(json, 'AWS::ElasticLoadBalancingV2::Listener');
    expect(listener.Properties).toMatchObject({ Port: 80, Protocol: 'HTTP', DefaultActions: [{ Type: 'forward' }] });
  });
});

describe.each(RUNTIMES)('auth modes on %s', (runtime) => {
  const httpsActions = (json: any) => resources(json, 'AWS::ElasticLoadBalancingV2::Listener')
    .find(([, l]) => l.Properties.Port === 443)![1].Properties.DefaultActions;

  test('none: the load balancer forwards without sign-in and the plugin gets auth mode none', () => {
    const { json } = synth(runtime, TLS);
    expect(httpsActions(json)).toEqual([expect.objectContaining({ Type: 'forward' })]);
  });

  test('alb-oidc: the load balancer signs users in first, with the client secret by reference and the oidcScopes', () => {
    const { json } = synth(runtime, { ...TLS, authMode: AuthMode.ALB_OIDC, oidc: { ...OIDC, scopes: ['openid', 'email', 'groups'] } });
    const [authenticate, forward] = httpsActions(json);
    expect(authenticate).toMatchObject({
      Type: 'authenticate-oidc',
      Order: 1,
      AuthenticateOidcConfig: {
        Issuer: OIDC.issuer,
        AuthorizationEndpoint: OIDC.authorizationEndpoint,
        TokenEndpoint: OIDC.tokenEndpoint,
        UserInfoEndpoint: OIDC.userInfoEndpoint,
        ClientId: 'wiki',
        Scope: 'openid email groups',
        ClientSecret: `{{resolve:secretsmanager:${OIDC.clientSecretArn}:SecretString:::}}`,
      },
    });
    expect(forward).toMatchObject({ Type: 'forward', Order: 2 });
  });

  test('application-oidc: the plugin\'s integration gets the provider, the client secret arrives by reference', () => {
    const { json } = synth(runtime, { ...TLS, authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC }, new WikiOidcSpec());
    expect(httpsActions(json)).toEqual([expect.objectContaining({ Type: 'forward' })]);
    if (runtime === RuntimeType.FARGATE) {
      const container = only(json, 'AWS::ECS::TaskDefinition').Properties.ContainerDefinitions[0];
      expect(container.Environment).toEqual(expect.arrayContaining([
        { Name: 'WIKI_OIDC_ISSUER', Value: OIDC.issuer }, { Name: 'WIKI_OIDC_CLIENT_ID', Value: 'wiki' },
        { Name: 'WIKI_PUBLIC_URL', Value: 'https://wiki.example.com' },
      ]));
      expect(container.Secrets).toEqual([{ Name: 'WIKI_OIDC_CLIENT_SECRET', ValueFrom: OIDC.clientSecretArn }]);
    } else {
      const script = userData(json);
      expect(script).toMatch(/^fw_env_line '\/etc\/fw\/application\.env' 'WIKI_OIDC_ISSUER' 'https:\/\/login\.example\.com'$/m);
      // Read by fw_env_secret into a variable first: a substitution used as an argument would hide a failing fetch
      // (ec2-boot-failure.test.ts).
      expect(script).toMatch(new RegExp(`^fw_env_secret '/etc/fw/application\\.env' 'WIKI_OIDC_CLIENT_SECRET' '[^']+' '${OIDC.clientSecretArn}'$`, 'm'));
      expect(script).toContain("install -m 0600 /dev/null '/etc/fw/application.env'");
    }
  });

  test('application-oidc with a plugin that cannot sign users in is refused', () => {
    expect(() => synth(runtime, { ...TLS, authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC }))
      .toThrow(/authMode "application-oidc" needs a plugin that signs users in itself, but WikiSpec \(applicationId wiki\) does not support OIDC/);
  });

  test('a plugin that declares no auth modes accepts all three when it signs users in itself, else the two that ask nothing of it', () => {
    expect(new WikiOidcSpec().supportedAuthModes()).toEqual(AuthMode.ALL);
    // Of today's modes: none and alb-oidc (AUTH_MODES says who signs users in under each).
    expect(new WikiSpec().supportedAuthModes()).toEqual(AuthMode.ALL.filter((mode) => AUTH_MODES[mode].signIn !== 'application'));
    for (const authMode of AuthMode.ALL) {
      expect(() => synth(runtime, { ...TLS, authMode, oidc: OIDC }, new WikiOidcSpec())).not.toThrow();
    }
  });

  test('a mode the plugin does not declare is refused, naming the plugin, the mode and the modes allowed', () => {
    const spec = Object.assign(new WikiOidcSpec(), { supportedAuthModes: () => [AuthMode.ALB_OIDC] });
    expect(() => synth(runtime, { ...TLS }, spec))
      .toThrow('WikiOidcSpec (applicationId wiki) cannot be deployed with authMode "none"; allowed: "alb-oidc".');
  });

  test('a plugin that declares a mode that does not exist is invalid', () => {
    const spec = Object.assign(new WikiSpec(), { supportedAuthModes: () => ['saml'] });
    expect(() => synth(runtime, {}, spec)).toThrow(/WikiSpec\.supportedAuthModes\(\) returned \["saml"\]; allowed: a non-empty list of "none", "application-oidc", "alb-oidc"/);
  });

  test('alb-oidc without TLS is refused', () => {
    expect(() => synth(runtime, { authMode: AuthMode.ALB_OIDC, oidc: OIDC })).toThrow(/authMode "alb-oidc" needs sslEnabled true/);
  });
});

describe('bad factory settings fail before anything is built', () => {
  test('PRODUCTION without TLS', () => {
    expect(() => synth(RuntimeType.FARGATE, { securityProfile: SecurityProfile.PRODUCTION }))
      .toThrow(/card data must not travel in clear text/);
  });
  test('an invalid plugin is named with its member', () => {
    const spec = Object.assign(new WikiSpec(), { efsPermissions: () => 'rwx' });
    expect(() => synth(RuntimeType.FARGATE, {}, spec)).toThrow(/WikiSpec\.efsPermissions\(\) returned "rwx"/);
  });
  test('a secret that is not a Secrets Manager ARN, without echoing it (every refused form: secrets.test.ts)', () => {
    expect(() => synth(RuntimeType.FARGATE, { secrets: { DB_PASSWORD: 'hunter2' } }))
      .toThrow(/secrets \(for WikiSpec\)\.DB_PASSWORD is not an ARN \(the value is not shown: it may be the secret itself\)/);
  });
  test('PRODUCTION on an environment-agnostic stack (no region for access logs)', () => {
    const stack = new Stack(new App(), 'NoRegion');
    expect(() => new ApplicationFactory(stack, 'App', RuntimeType.EC2, new WikiSpec(), { securityProfile: SecurityProfile.PRODUCTION, ...TLS }))
      .toThrow(/needs the stack's region/);
  });
});

describe('secrets travel by reference only', () => {
  const CANARY = 'canary-Zx81-correct-horse-battery';
  const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:wiki/db-AbCdEf';
  /** A plugin that holds a secret value, as one read from its own configuration would, and declares only references. */
  class CanaryWiki extends WikiOidcSpec {
    private readonly dbPassword = CANARY;
    public containerEnvironmentVariables(fqdn: string, ssl: boolean, mode: string) {
      return { ...super.containerEnvironmentVariables(fqdn, ssl, mode), WIKI_DB_PASSWORD_LENGTH: String(this.dbPassword.length) };
    }
  }

  test.each(RUNTIMES.flatMap((r) => [AuthMode.NONE, AuthMode.APPLICATION_OIDC, AuthMode.ALB_OIDC].map((m) => [r, m])))(
    '%s with %s: the canary appears in no synthesised file, the references do', (runtime, authMode) => {
      const app = new App();
      const stack = new Stack(app, 'Canary', { env: REGION_ENV });
      new ApplicationFactory(stack, 'App', runtime as RuntimeType, new CanaryWiki(), {
        ...TLS,
        authMode: authMode as string,
        oidc: authMode === AuthMode.NONE ? undefined : OIDC,
        secrets: { WIKI_DB_PASSWORD: SECRET_ARN },
      });
      const out = app.synth().directory;
      const files = (fs.readdirSync(out, { recursive: true }) as string[]).map((f) => path.join(out, f)).filter((f) => fs.statSync(f).isFile());
      const everything = files.map((f) => fs.readFileSync(f, 'utf-8')).join('\n');
      expect(everything).not.toContain(CANARY);
      expect(everything).toContain(SECRET_ARN);
    });
});

describe('PRODUCTION compliance (cdk-nag AwsSolutions, PciDss401Checks, NIST 800-53 R5, HIPAA)', () => {
  const variants = [
    ['FARGATE', RuntimeType.FARGATE, {}],
    ['EC2 with EFS', RuntimeType.EC2, {}],
    ['EC2 with EBS', RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS }],
    ['FARGATE with alb-oidc', RuntimeType.FARGATE, { authMode: AuthMode.ALB_OIDC, oidc: OIDC }],
  ] as const;

  test.each(variants)('%s: no unacknowledged finding, and synth passes the check', (_name, runtime, extra) => {
    const { stack, app } = synth(runtime, { securityProfile: SecurityProfile.PRODUCTION, ...TLS, ...extra });
    expect(complianceFindings(stack)).toEqual([]);
    expect(() => app.synth()).not.toThrow();
  });

  test('every acknowledgment of the packs\' rules sits on the resource it concerns, with a reason', () => {
    const { stack } = synth(RuntimeType.EC2, { securityProfile: SecurityProfile.PRODUCTION, ...TLS });
    const packRule = /^(annotation::)?(AwsSolutions|PCI\.DSS\.401|NIST\.800\.53\.R5|HIPAA\.Security)-/i;
    const ours = (c: IConstruct) => c.node.metadata
      .filter((m) => m.type === 'aws:cdk:acknowledged-rules')
      .flatMap((m) => Object.entries(m.data as Record<string, string>).filter(([id]) => packRule.test(id)));
    const acknowledged = stack.node.findAll().filter((c) => ours(c).length > 0);
    expect(acknowledged.length).toBeGreaterThan(5);
    for (const construct of acknowledged) {
      expect([construct.node.path, CfnResource.isCfnResource(construct)]).toEqual([construct.node.path, true]);
      for (const [, reason] of ours(construct)) expect(reason.length).toBeGreaterThan(60);
    }
    expect(ours(stack)).toEqual([]);
  });

  test('a finding nobody acknowledged fails synth, naming the rule and the resource', () => {
    const app = new App();
    const stack = new Stack(app, 'WikiStack', { env: REGION_ENV });
    new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new WikiSpec(), { securityProfile: SecurityProfile.PRODUCTION, ...TLS, pciDssScope: PciDssScope.CONNECTED, alarmEmail: 'security@example.com' });
    new s3.Bucket(stack, 'Careless');
    expect(() => app.synth()).toThrow(/AwsSolutions-S1 \(error\).*WikiStack\/Careless\/Resource/);
  });

  test('other profiles are not held to the packs', () => {
    const app = new App();
    const stack = new Stack(app, 'WikiStack', { env: REGION_ENV });
    new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new WikiSpec(), { securityProfile: SecurityProfile.STAGING });
    new s3.Bucket(stack, 'Careless');
    expect(() => app.synth()).not.toThrow();
  });
});

test('EC2: the instance starts only once its role\'s policy exists (the boot reads secrets and mounts with it)', () => {
  const { json } = synth(RuntimeType.EC2, { ...TLS, authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC }, new WikiOidcSpec());
  const [policyId] = resources(json, 'AWS::IAM::Policy').find(([id]) => id.includes('Ec2RoleDefaultPolicy'))!;
  expect(only(json, 'AWS::AutoScaling::AutoScalingGroup').DependsOn).toContain(policyId);
});
