/**
 * The baseline of the synth benchmark: the DEV deployment of a small application, written by hand with aws-cdk-lib
 * alone, in the same shape as what ApplicationFactory builds (same resources, same settings), without the framework.
 */
import { Duration, RemovalPolicy, Stack, StackProps } from 'aws-cdk-lib';
import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as efs from 'aws-cdk-lib/aws-efs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';

export interface HandWrittenStackProps extends StackProps {
  readonly runtime: 'FARGATE' | 'EC2';
  /** The user data the EC2 instance runs. */
  readonly userData: string;
}

export class HandWrittenStack extends Stack {
  constructor(scope: Construct, id: string, props: HandWrittenStackProps) {
    super(scope, id, props);
    const logsKey = new kms.Key(this, 'LogsKey', { enableKeyRotation: true, removalPolicy: RemovalPolicy.DESTROY });
    const key = new kms.Key(this, 'DataKey', { enableKeyRotation: true, removalPolicy: RemovalPolicy.DESTROY });
    const logGroupName = `/aws/${this.stackName}/${props.runtime}/DEV`;
    const defaultGroupLogsName = `/aws/${this.stackName}/default-security-group`;
    logsKey.addToResourcePolicy(new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal(`logs.${this.region}.amazonaws.com`)],
      actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: { ArnEquals: { 'kms:EncryptionContext:aws:logs:arn': [logGroupName, defaultGroupLogsName].map((name) => `arn:aws:logs:${this.region}:${this.account}:log-group:${name}`) } },
    }));
    const logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName, retention: logs.RetentionDays.ONE_WEEK, encryptionKey: logsKey, removalPolicy: RemovalPolicy.DESTROY,
    });
    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2, natGateways: 0, restrictDefaultSecurityGroup: false,
      subnetConfiguration: [{ name: 'Public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24, mapPublicIpOnLaunch: false }],
    });
    closeDefaultSecurityGroup(this, vpc, new logs.LogGroup(this, 'DefaultSgLogs', {
      logGroupName: defaultGroupLogsName, retention: logs.RetentionDays.ONE_WEEK, encryptionKey: logsKey, removalPolicy: RemovalPolicy.DESTROY,
    }));
    const efsGroup = new ec2.SecurityGroup(this, 'EfsSg', { vpc, allowAllOutbound: false });
    const fileSystem = new efs.FileSystem(this, 'Fs', {
      vpc, vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC }, securityGroup: efsGroup, encrypted: true, kmsKey: key,
      enableAutomaticBackups: true, removalPolicy: RemovalPolicy.DESTROY,
    });
    const accessPoint = fileSystem.addAccessPoint('Ap', {
      path: '/app', createAcl: { ownerUid: '1000', ownerGid: '1000', permissions: '750' }, posixUser: { uid: '1000', gid: '1000' },
    });
    const albGroup = new ec2.SecurityGroup(this, 'AlbSg', { vpc, allowAllOutbound: false });
    const alb = new elbv2.ApplicationLoadBalancer(this, 'Alb', {
      vpc, internetFacing: true, securityGroup: albGroup, dropInvalidHeaderFields: true, vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
    });
    alb.setAttribute('routing.http.desync_mitigation_mode', 'strictest');
    const listener = alb.addListener('Http', { port: 80, open: true });
    const appGroup = new ec2.SecurityGroup(this, 'AppSg', { vpc, allowAllOutbound: false });
    appGroup.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443));
    appGroup.addIngressRule(albGroup, ec2.Port.tcp(8080));
    efsGroup.addIngressRule(appGroup, ec2.Port.tcp(2049));
    appGroup.addEgressRule(efsGroup, ec2.Port.tcp(2049));
    const targetGroup = new elbv2.ApplicationTargetGroup(this, 'Tg', {
      vpc, port: 8080, protocol: elbv2.ApplicationProtocol.HTTP, deregistrationDelay: Duration.seconds(30),
      targetType: props.runtime === 'FARGATE' ? elbv2.TargetType.IP : elbv2.TargetType.INSTANCE,
      healthCheck: { path: '/', healthyHttpCodes: '200-399', interval: Duration.seconds(30), healthyThresholdCount: 2, unhealthyThresholdCount: 5 },
    });

    // Whether the application runs: a Fargate service's CPU samples, an EC2 instance's status checks.
    let running: cloudwatch.IMetric;
    if (props.runtime === 'FARGATE') {
      const cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED });
      const task = new ecs.FargateTaskDefinition(this, 'Task', {
        cpu: 1024, memoryLimitMiB: 2048,
        volumes: [{ name: 'data', efsVolumeConfiguration: {
          fileSystemId: fileSystem.fileSystemId, transitEncryption: 'ENABLED',
          authorizationConfig: { accessPointId: accessPoint.accessPointId, iam: 'ENABLED' },
        } }],
      });
      const container = task.addContainer('App', {
        image: ecs.ContainerImage.fromRegistry('example/app:1.0.0'), user: '1000:1000', portMappings: [{ containerPort: 8080 }],
        environment: { APP_URL: 'http://localhost:8080' }, logging: ecs.LogDrivers.awsLogs({ logGroup, streamPrefix: 'app' }),
      });
      container.addMountPoints({ sourceVolume: 'data', containerPath: '/data', readOnly: false });
      fileSystem.grant(task.taskRole, 'elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite');
      restrictFileSystem(fileSystem, task.taskRole);
      const service = new ecs.FargateService(this, 'Service', {
        cluster, taskDefinition: task, desiredCount: 1, minHealthyPercent: 0, maxHealthyPercent: 100,
        circuitBreaker: { rollback: true }, assignPublicIp: true, securityGroups: [appGroup],
        vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC }, healthCheckGracePeriod: Duration.minutes(5),
      });
      service.attachToApplicationTargetGroup(targetGroup);
      running = service.metricCpuUtilization({ statistic: 'SampleCount' });
    } else {
      const role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com') });
      logGroup.grantWrite(role);
      role.addToPolicy(new iam.PolicyStatement({ actions: ['logs:DescribeLogStreams'], resources: [logGroup.logGroupArn] }));
      fileSystem.grant(role, 'elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite');
      restrictFileSystem(fileSystem, role);
      const template = new ec2.LaunchTemplate(this, 'Lt', {
        machineImage: ec2.MachineImage.latestAmazonLinux2023(), instanceType: new ec2.InstanceType('t3.medium'),
        requireImdsv2: true, httpPutResponseHopLimit: 1, role, securityGroup: appGroup, associatePublicIpAddress: true,
        userData: ec2.UserData.custom(props.userData),
        blockDevices: [{ deviceName: '/dev/xvda', volume: ec2.BlockDeviceVolume.ebs(30, { encrypted: true, volumeType: ec2.EbsDeviceVolumeType.GP3 }) }],
      });
      const asg = new autoscaling.AutoScalingGroup(this, 'Asg', {
        vpc, vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC }, launchTemplate: template, minCapacity: 1, maxCapacity: 1,
        updatePolicy: autoscaling.UpdatePolicy.rollingUpdate({ maxBatchSize: 1, minInstancesInService: 0 }),
        healthChecks: autoscaling.HealthChecks.withAdditionalChecks({
          additionalTypes: [autoscaling.AdditionalHealthCheckType.ELB], gracePeriod: Duration.minutes(10),
        }),
      });
      asg.node.addDependency(role.node.findChild('DefaultPolicy'));
      asg.attachToApplicationTargetGroup(targetGroup);
      running = new cloudwatch.Metric({ namespace: 'AWS/EC2', metricName: 'StatusCheckFailed', dimensionsMap: { AutoScalingGroupName: asg.autoScalingGroupName } });
    }
    listener.addAction('App', { action: elbv2.ListenerAction.forward([targetGroup]) });
    // Three alarms on the application's health to an encrypted topic (its own key), as every application gets them.
    const alarmsKey = new kms.Key(this, 'AlarmsKey', { enableKeyRotation: true, removalPolicy: RemovalPolicy.DESTROY });
    const topic = new sns.Topic(this, 'Alarms', { masterKey: alarmsKey, enforceSSL: true });
    const metrics = [targetGroup.metrics.healthyHostCount(), targetGroup.metrics.httpCodeTarget(elbv2.HttpCodeTarget.TARGET_5XX_COUNT), running];
    metrics.forEach((metric, i) => new cloudwatch.Alarm(this, `Alarm${i}`, { metric, threshold: 1, evaluationPeriods: 5 })
      .addAlarmAction(new actions.SnsAction(topic)));
  }
}

/** The file system policy the framework writes: TLS only, no root, the role only, through an access point. */
function restrictFileSystem(fileSystem: efs.FileSystem, role: iam.IRole): void {
  const client = ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite'];
  const anyone = [new iam.AnyPrincipal()];
  for (const statement of [
    new iam.PolicyStatement({ effect: iam.Effect.DENY, principals: anyone, actions: [...client, 'elasticfilesystem:ClientRootAccess'], resources: ['*'], conditions: { Bool: { 'aws:SecureTransport': 'false' } } }),
    new iam.PolicyStatement({ effect: iam.Effect.DENY, principals: anyone, actions: ['elasticfilesystem:ClientRootAccess'], resources: ['*'] }),
    new iam.PolicyStatement({ effect: iam.Effect.DENY, principals: anyone, actions: client, resources: ['*'], conditions: { Null: { 'elasticfilesystem:AccessPointArn': 'true' } } }),
    new iam.PolicyStatement({ effect: iam.Effect.DENY, principals: anyone, actions: client, resources: ['*'], conditions: { ArnNotEquals: { 'aws:PrincipalArn': role.roleArn } } }),
    new iam.PolicyStatement({ principals: [new iam.ArnPrincipal(role.roleArn)], actions: client, resources: ['*'], conditions: { Null: { 'elasticfilesystem:AccessPointArn': 'false' } } }),
  ]) fileSystem.addToResourcePolicy(statement);
}

/** The default security group's two rules revoked, as the framework does (infrastructure/default-security-group.ts). */
function closeDefaultSecurityGroup(scope: Construct, vpc: ec2.Vpc, logGroup: logs.ILogGroup): void {
  const groupId = vpc.vpcDefaultSecurityGroup;
  const arn = Stack.of(scope).formatArn({ service: 'ec2', resource: 'security-group', resourceName: groupId });
  for (const [name, action, permission] of [
    ['Ingress', 'revokeSecurityGroupIngress', { UserIdGroupPairs: [{ GroupId: groupId, UserId: Stack.of(scope).account }] }],
    ['Egress', 'revokeSecurityGroupEgress', { IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
  ] as const) {
    const call = {
      service: 'EC2', action, parameters: { GroupId: groupId, IpPermissions: [{ IpProtocol: '-1', ...permission }] },
      physicalResourceId: cr.PhysicalResourceId.of(`${groupId}-${name}`), ignoreErrorCodesMatching: 'InvalidPermission.NotFound',
    };
    new cr.AwsCustomResource(scope, `DefaultSg${name}`, {
      onCreate: call, onUpdate: call, logGroup, installLatestAwsSdk: false,
      policy: cr.AwsCustomResourcePolicy.fromStatements([new iam.PolicyStatement({ actions: [`ec2:${action[0].toUpperCase()}${action.slice(1)}`], resources: [arn] })]),
    });
  }
}
