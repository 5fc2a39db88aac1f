import {
  aws_autoscaling as autoscaling, aws_ec2 as ec2, aws_elasticloadbalancingv2 as elbv2, aws_iam as iam, aws_ssm as ssm,
  Aws, CfnResource, Duration, Fn, Lazy, RemovalPolicy, Stack,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Ec2DataVolume } from './ec2-data-volume';
import { Ec2UserDataBuilder, grantBootRead, readParameter } from './ec2-user-data';
import { EC2_IMAGE_MEMBER, type RuntimeProps } from './runtime-props';
import { grantSecretKeys } from './secret-keys';
import { acknowledge } from '../compliance/acknowledge';
import { DeploymentStrategy } from '../contract/deployment-strategy';
import type { Ec2Context } from '../contract/ec2-context';
import { WorkerVariables } from '../contract/ephemeral-workers';
import { Ec2Files } from '../contract/oidc-integration';
import { SERVICE_USER } from '../contract/plain-names';
import { callNewerMember, callPlugin, separateHealthCheckPort } from '../contract/plugin-calls';
import { PosixUser } from '../contract/posix-user';
import { userDataProblem } from '../contract/spec-validation';
import { UserError } from '../errors';
import { computeSecurityGroup } from '../infrastructure/egress';
import { HEALTHY_HTTP_CODES } from '../infrastructure/routing';
import { PROFILE_SETTINGS } from '../profiles/profile-settings';
import type { ImageRun } from '../userdata/image-run';
import { Shell } from '../userdata/shell';

/**
 * What the SSM agent needs for Session Manager's sessions, port forwards included (AWS Systems Manager User Guide,
 * "Create a custom IAM role for Session Manager": ssmmessages' four channel actions and ssm:UpdateInstanceInformation).
 */
export const SESSION_MANAGER_ACTIONS = ['ssm:UpdateInstanceInformation', 'ssmmessages:CreateControlChannel',
  'ssmmessages:CreateDataChannel', 'ssmmessages:OpenControlChannel', 'ssmmessages:OpenDataChannel'];

export interface Ec2Size {
  readonly instanceType: ec2.InstanceType;
  /** Size of the EBS data volume in GiB (EBS storage only). */
  readonly dataVolumeGiB: number;
  /** Days a daily backup of the EBS data volume is kept; none when undefined (EBS storage only). */
  readonly dataVolumeBackupDays?: number;
  /** Removal policy of the EBS data volume (EBS storage only). */
  readonly dataVolumeRemovalPolicy: RemovalPolicy;
}

/**
 * What an EC2 boot takes before the application's own installation: the system update, the CloudWatch agent and the
 * data volume. The instance's health-check grace is this plus the plugin's `startupSeconds`.
 */
export const EC2_PROVISIONING_SECONDS = 300;

/**
 * Everything EC2-specific: `desiredCount` instances in an Auto Scaling group (Amazon Linux 2023, pinned or the newest, IMDSv2,
 * encrypted disks), built by the plugin's user data through the framework's builder.
 */
export class Ec2Runtime extends Construct {
  public readonly autoScalingGroup: autoscaling.AutoScalingGroup;
  public readonly launchTemplate: ec2.LaunchTemplate;
  public readonly securityGroup: ec2.SecurityGroup;
  /** The load balancer's target group of the application's instance. */
  public readonly targetGroup: elbv2.ApplicationTargetGroup;
  /** The rendered startup script (CDK tokens unresolved). */
  public readonly userDataScript: string;
  /** The data volume with EBS storage; undefined with EFS, and for an application that keeps no data. */
  public readonly dataVolume?: ec2.Volume;

  constructor(scope: Construct, id: string, props: RuntimeProps & Ec2Size) {
    super(scope, id);
    const { spec, pluginName, network, loadBalancer, storage, context } = props;
    const account = serviceAccount(spec.applicationId(), spec.containerUser(), pluginName);

    this.securityGroup = computeSecurityGroup(this, 'SecurityGroup', network.vpc, 'Application instance: the application port from the load balancer only', spec.egressRules());
    this.securityGroup.addIngressRule(loadBalancer.securityGroup, ec2.Port.tcp(spec.applicationPort()), 'From the load balancer');

    const role = this.instanceRole(props);
    let workerSettings: ssm.StringParameter | undefined;
    if (props.workers) {
      props.workers.admitTo(this.securityGroup);
      props.workers.grantLaunch(role);
      // The workers' settings are long ARNs and ids resolved at deploy time: they reach the instance through one
      // parameter, read at boot, so the user data stays within EC2's 16 KB however long they are.
      workerSettings = new ssm.StringParameter(this, 'WorkerSettings', {
        description: 'Environment entries the application reads to start its workers',
        stringValue: Object.entries(props.workers.environment()).map(([name, value]) => `${name}=${value}`).join('\n'),
      });
      grantBootRead(role, [workerSettings]);
    }

    // EBS: one volume in the zone of the group's only subnet, attached by every instance at boot.
    const subnet = network.vpc.selectSubnets(network.computeSubnets).subnets[0];
    const dataVolume = storage || !props.keepsData ? undefined : new Ec2DataVolume(this, 'Data', {
      availabilityZone: subnet.availabilityZone,
      sizeGiB: props.dataVolumeGiB,
      key: dataKeyOf(props),
      removalPolicy: props.dataVolumeRemovalPolicy,
      stackName: context.stackName,
      snapshotId: context.dataVolumeSnapshotId,
      backupDays: props.dataVolumeBackupDays,
    });
    this.dataVolume = dataVolume?.volume;

    this.userDataScript = this.userData(props, role, account, workerSettings, dataVolume);

    this.launchTemplate = new ec2.LaunchTemplate(this, 'LaunchTemplate', {
      machineImage: machineImage(context.ec2ImageId),
      instanceType: props.instanceType,
      requireImdsv2: true,
      httpPutResponseHopLimit: 1,
      role,
      securityGroup: this.securityGroup,
      // Stated either way: on a given VPC the subnet's MapPublicIpOnLaunch would decide otherwise.
      associatePublicIpAddress: network.computeNeedsPublicIp,
      userData: ec2.UserData.custom(this.userDataScript),
      blockDevices: [
        // Under the data key, not EBS's AWS-managed one: the root volume holds the system's logs and temporary files.
        { deviceName: '/dev/xvda', volume: ec2.BlockDeviceVolume.ebs(30, { encrypted: true, kmsKey: dataKeyOf(props), volumeType: ec2.EbsDeviceVolumeType.GP3 }) },
      ],
    });
    this.autoScalingGroup = this.instanceGroup(props, dataVolume ? subnet : undefined);
    const attachPolicy = dataVolume?.grantAttach(role, this.autoScalingGroup);
    // The boot reads secrets and settings, attaches and mounts with the role's permissions: the instance starts only
    // once the role's policies exist (CloudFormation would otherwise create them in parallel with the group).
    const imagePulls = this.node.tryFindChild('ImagePulls');
    for (const policy of [...role.node.children.filter((c) => c instanceof iam.Policy), ...attachPolicy ? [attachPolicy] : [],
      ...imagePulls ? [imagePulls] : []]) {
      this.autoScalingGroup.node.addDependency(policy);
    }
    // The first boot installs packages through the NAT gateway and mounts the file system: the instance starts once the
    // compute subnets' routes out and the mount targets exist (CloudFormation would otherwise create them in parallel).
    this.autoScalingGroup.node.addDependency(network.vpc.selectSubnets(network.computeSubnets).internetConnectivityEstablished);
    // The boot's signal (signalTo): the stack's own, to this group only by its logical id, which IAM cannot narrow to.
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['cloudformation:SignalResource'], resources: [Aws.STACK_ID] }));
    if (storage) this.autoScalingGroup.node.addDependency(storage.mountTargetsAvailable);
    acknowledge(this.autoScalingGroup, 'AwsSolutions-AS3', 'A group of a fixed count of instances (desiredCount) that never scales; ' +
      'replacements are recorded in CloudTrail and the load balancer\'s target health.');
    this.targetGroup = loadBalancer.targetGroup(elbv2.TargetType.INSTANCE);
    this.autoScalingGroup.attachToApplicationTargetGroup(this.targetGroup);
    // A health check on another port: the load balancer reaches the instance on it too.
    const healthPort = separateHealthCheckPort(props.spec);
    if (healthPort !== undefined) this.targetGroup.registerConnectable(this.autoScalingGroup, ec2.Port.tcp(healthPort));
    loadBalancer.route(this.targetGroup);
  }

  /** The instance's role: it ships its logs, mounts its file system, reads its secrets. */
  private instanceRole(props: RuntimeProps): iam.Role {
    const { log, storage } = props;
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com'),
      // On a platform the role's path is how the file-system policy knows it.
      path: props.rolePath,
      description: 'Application instance: ships its logs, mounts its file system, reads its secrets',
    });
    log.group.grantWrite(role);
    role.addToPolicy(new iam.PolicyStatement({
      actions: ['logs:DescribeLogStreams'],
      resources: [log.group.logGroupArn],
    }));
    Object.values(props.secrets).forEach(({ secret }) => secret.grantRead(role));
    grantSecretKeys(role, Object.values(props.secrets), props.context.secretKeyArns);
    if (storage) storage.allowFrom(this.securityGroup, role);
    if (PROFILE_SETTINGS[props.context.securityProfile].sessionManager) {
      // DEV: a port forward through Session Manager; the actions of AmazonSSMManagedInstanceCore the agent's sessions use.
      role.addToPolicy(new iam.PolicyStatement({ actions: SESSION_MANAGER_ACTIONS, resources: ['*'] }));
    }
    return role;
  }

  /** The boot script: the service account, the environment file, the data volume, then the plugin's own steps. */
  private userData(props: RuntimeProps, role: iam.Role, account: ReturnType<typeof serviceAccount>, workerSettings: ssm.StringParameter | undefined,
    dataVolume: Ec2DataVolume | undefined): string {
    const { spec, pluginName, log, storage, context } = props;
    const ec2Context: Ec2Context = {
      stackName: context.stackName,
      securityProfile: context.securityProfile,
      runtimeType: context.runtimeType,
      logGroupName: log.name,
      serviceUser: account.name,
      fqdn: context.fqdn,
      sslEnabled: context.sslEnabled,
      keepsData: props.keepsData,
      hasEfs: storage !== undefined,
      efsId: storage?.fileSystemId,
      accessPointId: storage?.accessPointId,
    };
    const builder = new Ec2UserDataBuilder(this, role, () => this.imageRun(props, role, ec2Context));
    // The group is made after its launch template: its logical id is read when the template is written.
    builder.signalTo(Stack.of(this).region, Stack.of(this).stackName,
      Lazy.string({ produce: () => (this.autoScalingGroup.node.defaultChild as CfnResource).logicalId }));
    builder.createServiceAccount(account.name, account.uid, account.gid, spec.ec2DataPath());
    const environment = environmentFileCommands(props, workerSettings);
    if (environment.length > 0) builder.addEnvironmentCommands(...environment);
    // The application's private name, for its workers: the instance's own DNS name, which resolves inside the VPC.
    if (props.workers) builder.appendInstanceMetadata(Ec2Files.APPLICATION_ENVIRONMENT_FILE, WorkerVariables.PRIVATE_HOST, 'local-hostname');
    if (dataVolume) builder.attachEbsVolume(dataVolume.volume.volumeId, spec.ebsDeviceName(), Stack.of(this).region);
    callPlugin(pluginName, 'configureUserData', () => spec.configureUserData(builder, ec2Context));
    builder.signalWhenHealthy(separateHealthCheckPort(spec) ?? spec.applicationPort(), spec.healthCheckPath(),
      HEALTHY_HTTP_CODES.low, HEALTHY_HTTP_CODES.high, props.startupSeconds);
    const script = builder.render();
    const tooLarge = userDataProblem(script, spec.constructor?.name || spec.applicationId());
    if (tooLarge) throw new UserError(tooLarge, this);
    return script;
  }

  /** The plugin's image, admitted by the factory, pulled with the instance's role. */
  private imageRun(props: RuntimeProps, role: iam.Role, context: Ec2Context): ImageRun {
    const { spec, pluginName } = props;
    const image = spec.defaultContainerImage();
    const source = props.admitImage(EC2_IMAGE_MEMBER, image);
    source.grantPulls(this, image, role);
    const { uid, gid } = PosixUser.parse(spec.containerUser());
    return {
      applicationId: spec.applicationId(),
      image,
      reference: source.reference(this, image),
      loginRegion: source.loginRegion(this, image),
      uid,
      gid,
      data: props.keepsData
        ? { containerPath: spec.containerDataPath(), hostPath: spec.ec2DataPath(), ebsDeviceName: spec.ebsDeviceName() }
        : undefined,
      environment: callPlugin(pluginName, 'containerEnvironmentVariables',
        () => spec.containerEnvironmentVariables(context.fqdn ?? '', context.sslEnabled, props.context.authMode)),
      logPaths: spec.ec2LogPaths(),
      command: callNewerMember(spec, pluginName, 'containerCommand') ?? undefined,
    };
  }

  /**
   * `desiredCount` instances (one with data of its own), in the data volume's zone with EBS (`subnet`). Stop-first
   * replaces an instance before its successor starts: one writer of one data directory, never two side by side.
   * Rolling launches each successor first (the group may hold one more while it does) and keeps every instance in
   * service until the successor has signalled.
   */
  private instanceGroup(props: RuntimeProps & Ec2Size, subnet: ec2.ISubnet | undefined): autoscaling.AutoScalingGroup {
    const { network } = props;
    const { desiredCount, strategy } = props.rollout;
    const rolling = strategy === DeploymentStrategy.ROLLING;
    return new autoscaling.AutoScalingGroup(this, 'Instances', {
      vpc: network.vpc,
      // With EBS the group lives in the volume's zone; with EFS in every compute subnet.
      vpcSubnets: subnet ? { subnets: [subnet] } : network.computeSubnets,
      launchTemplate: this.launchTemplate,
      minCapacity: desiredCount,
      // CloudFormation's rolling update needs MinInstancesInService below MaxSize: room for the successor.
      maxCapacity: rolling ? desiredCount + 1 : desiredCount,
      // Creation and each replacement wait for the boot's signal, sent once the application answers its health check
      // (signalTo); a FAILURE, or none within the time, fails the creation and rolls the update back.
      signals: autoscaling.Signals.waitForMinCapacity({ timeout: Duration.seconds(signalSeconds(props.startupSeconds)) }),
      updatePolicy: autoscaling.UpdatePolicy.rollingUpdate({ maxBatchSize: 1, minInstancesInService: rolling ? desiredCount : 0 }),
      healthChecks: autoscaling.HealthChecks.withAdditionalChecks({
        additionalTypes: [autoscaling.AdditionalHealthCheckType.ELB],
        // Not replaced before its first boot may finish: the framework's provisioning, then the application's start.
        gracePeriod: Duration.seconds(EC2_PROVISIONING_SECONDS + props.startupSeconds),
      }),
    });
  }
}

/**
 * Writes the root-only environment file: plain entries as they are, secrets read from Secrets Manager at boot with the
 * instance role (`fw_env_secret`), so no secret value is ever in the template or the user data. Each entry is quoted
 * for systemd's `EnvironmentFile=` (`fw_env_line`), so a value with quotes, backslashes, `$` or spaces at either end
 * arrives as it is. A secret that cannot be read, or is empty, stops the boot, logging the line and the journal tail;
 * its value is in no process's environment or arguments, and `aws`' error message, which never holds it, goes to the log.
 */
function environmentFileCommands(props: RuntimeProps, workerSettings?: ssm.StringParameter): string[] {
  const plain = Object.entries(props.environment);
  const secrets = Object.entries(props.secrets);
  if (plain.length + secrets.length === 0 && !workerSettings) return [];
  const file = Shell.quote(Ec2Files.APPLICATION_ENVIRONMENT_FILE);
  return [
    `install -d -m 0700 ${Shell.quote(Ec2Files.APPLICATION_ENVIRONMENT_FILE.replace(/\/[^/]+$/, ''))}`,
    `install -m 0600 /dev/null ${file}`,
    ...plain.map(([name, value]) => `fw_env_line ${file} ${Shell.quote(name)} ${Shell.quote(value)}`),
    ...workerSettings ? [readParameter('fw_workers', workerSettings), `printf '%s\\n' "$fw_workers" >> ${file}`] : [],
    ...secrets.map(([name, { secret, jsonKey, versionStage, versionId }]) => ['fw_env_secret', file, Shell.quote(name),
      Shell.quote(Fn.select(3, Fn.split(':', secret.secretArn))), Shell.quote(secret.secretArn),
      ...[jsonKey, versionStage, versionId].map((v) => Shell.quote(v ?? ''))].join(' ').replace(/( '')+$/, '')),
  ];
}


/**
 * The application's system account on EC2: named after the application, with `containerUser()`'s ids. Root (uid 0) is
 * refused; other ids under `FIRST_REGULAR_ID` are taken at boot when free (`fw_service_account`).
 */
function serviceAccount(applicationId: string, containerUser: string, pluginName: string) {
  const { uid, gid } = PosixUser.parse(containerUser);
  const problems = [
    ...Number(uid) === 0
      ? [`containerUser() is '${containerUser}': uid 0 is root, and on EC2 the application would run as root on the ` +
        'instance; give the image\'s own user, for example \'1000:1000\' or an official image\'s (Grafana \'472:0\')']
      : [],
    ...SERVICE_USER.test(applicationId) ? [] : [`applicationId() is '${applicationId}': on EC2 it names the application's ` +
      'account, and a user name is at most 32 characters'],
  ];
  if (problems.length > 0) throw new UserError(`${pluginName}: ${problems.join('; ')}.`);
  return { name: applicationId, uid, gid };
}

/**
 * The image the deployment names (`ec2ImageId`; STAGING and PRODUCTION require one), or the newest Amazon Linux 2023,
 * read from AWS's public parameter at each deployment.
 */
function machineImage(imageId: string | undefined): ec2.IMachineImage {
  if (imageId === undefined) return ec2.MachineImage.latestAmazonLinux2023();
  return { getImage: () => ({ imageId, osType: ec2.OperatingSystemType.LINUX, userData: ec2.UserData.forLinux() }) };
}

/**
 * How long CloudFormation waits for an instance's signal: the framework's provisioning, the application's start-up
 * (its health check's wait), and two minutes for the instance to launch and the signal to arrive.
 */
export function signalSeconds(startupSeconds: number): number {
  return EC2_PROVISIONING_SECONDS + startupSeconds + 120;
}

/** The volumes' key; the factory hands one over for EC2. */
function dataKeyOf(props: RuntimeProps) {
  if (!props.dataKey) throw new Error('EC2 without a data key');
  return props.dataKey;
}
