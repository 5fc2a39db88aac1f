import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as backup from 'aws-cdk-lib/aws-backup';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as codebuild from 'aws-cdk-lib/aws-codebuild';
import * as dax from 'aws-cdk-lib/aws-dax';
import * as docdb from 'aws-cdk-lib/aws-docdb';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as efs from 'aws-cdk-lib/aws-efs';
import * as eks from 'aws-cdk-lib/aws-eks';
import * as elasticache from 'aws-cdk-lib/aws-elasticache';
import * as elb from 'aws-cdk-lib/aws-elasticloadbalancing';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as neptune from 'aws-cdk-lib/aws-neptune';
import * as rds from 'aws-cdk-lib/aws-rds';
import * as redshift from 'aws-cdk-lib/aws-redshift';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';

/** Builds, in a fresh stack, the resource a rule judges; returns it. */
type Make = (stack: Stack) => any;

/** For every rule of PciDss401Checks: a resource that meets it and one that does not. */
export const RULE_FIXTURES: Record<string, { readonly meets: Make; readonly fails: Make }> = {
  APIGWCacheEnabledAndEncrypted: {
    meets: (s) => new apigw.CfnStage(s, 'R', { restApiId: 'a', methodSettings: [{ httpMethod: '*', resourcePath: '/*', cachingEnabled: true, cacheDataEncrypted: true }] }),
    fails: (s) => new apigw.CfnStage(s, 'R', { restApiId: 'a' }),
  },
  APIGWXrayEnabled: {
    meets: (s) => new apigw.CfnStage(s, 'R', { restApiId: 'a', tracingEnabled: true }),
    fails: (s) => new apigw.CfnStage(s, 'R', { restApiId: 'a' }),
  },
  AppSyncGraphQLRequestLogging: {
    meets: (s) => new appsync.CfnGraphQLApi(s, 'R', { name: 'a', authenticationType: 'API_KEY', logConfig: { cloudWatchLogsRoleArn: 'arn:aws:iam::123456789012:role/r', fieldLogLevel: 'ALL' } }),
    fails: (s) => new appsync.CfnGraphQLApi(s, 'R', { name: 'a', authenticationType: 'API_KEY' }),
  },
  AuroraMySQLPostgresIAMAuth: {
    meets: (s) => new rds.CfnDBCluster(s, 'R', { engine: 'aurora-postgresql', enableIamDatabaseAuthentication: true }),
    fails: (s) => new rds.CfnDBCluster(s, 'R', { engine: 'aurora-postgresql' }),
  },
  CloudFrontDistributionAccessLogging: {
    meets: (s) => distribution(s, { logging: { bucket: 'logs.s3.amazonaws.com' } }),
    fails: (s) => distribution(s, {}),
  },
  CloudFrontDistributionHttpsViewerNoOutdatedSSL: {
    meets: (s) => distribution(s, { viewerCertificate: { acmCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/x', minimumProtocolVersion: 'TLSv1.2_2021', sslSupportMethod: 'sni-only' } }),
    fails: (s) => distribution(s, { viewerCertificate: { acmCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/x', minimumProtocolVersion: 'TLSv1', sslSupportMethod: 'sni-only' } }),
  },
  CloudFrontDistributionNoOutdatedSSL: {
    meets: (s) => distribution(s, {}, ['TLSv1.2']),
    fails: (s) => distribution(s, {}, ['SSLv3', 'TLSv1.2']),
  },
  CloudFrontDistributionS3OriginAccessControl: {
    meets: (s) => s3Distribution(s, 'oac-1'),
    fails: (s) => s3Distribution(s, undefined),
  },
  CloudFrontDistributionWAFIntegration: {
    meets: (s) => distribution(s, { webAclId: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/a/b' }),
    fails: (s) => distribution(s, {}),
  },
  CodeBuildProjectEnvVarAwsCred: {
    meets: (s) => codebuildProject(s, [{ name: 'STAGE', value: 'prod' }]),
    fails: (s) => codebuildProject(s, [{ name: 'AWS_SECRET_ACCESS_KEY', value: 'x' }]),
  },
  DAXEncrypted: {
    meets: (s) => new dax.CfnCluster(s, 'R', { iamRoleArn: 'arn:aws:iam::123456789012:role/r', nodeType: 'dax.r4.large', replicationFactor: 3, sseSpecification: { sseEnabled: true } }),
    fails: (s) => new dax.CfnCluster(s, 'R', { iamRoleArn: 'arn:aws:iam::123456789012:role/r', nodeType: 'dax.r4.large', replicationFactor: 3 }),
  },
  DocumentDBClusterEncryptionAtRest: {
    meets: (s) => new docdb.CfnDBCluster(s, 'R', { storageEncrypted: true }),
    fails: (s) => new docdb.CfnDBCluster(s, 'R', {}),
  },
  DynamoDBInBackupPlan: {
    meets: (s) => inBackupPlan(s, new dynamodb.CfnTable(s, 'R', { keySchema: [{ attributeName: 'k', keyType: 'HASH' }], tableName: 't' }), () => 'arn:aws:dynamodb:eu-west-1:123456789012:table/t'),
    fails: (s) => new dynamodb.CfnTable(s, 'R', { keySchema: [{ attributeName: 'k', keyType: 'HASH' }], tableName: 't' }),
  },
  DynamoDBPITREnabled: {
    meets: (s) => new dynamodb.CfnTable(s, 'R', { keySchema: [{ attributeName: 'k', keyType: 'HASH' }], pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true } }),
    fails: (s) => new dynamodb.CfnTable(s, 'R', { keySchema: [{ attributeName: 'k', keyType: 'HASH' }] }),
  },
  EC2EBSInBackupPlan: {
    meets: (s) => inBackupPlan(s, new ec2.CfnVolume(s, 'R', { availabilityZone: 'eu-west-1a', size: 10 }), (ref) => `arn:aws:ec2:eu-west-1:123456789012:volume/${ref}`),
    fails: (s) => new ec2.CfnVolume(s, 'R', { availabilityZone: 'eu-west-1a', size: 10 }),
  },
  EC2IMDSv2Enabled: {
    meets: (s) => new ec2.CfnInstance(s, 'R', { metadataOptions: { httpTokens: 'required' } }),
    fails: (s) => new ec2.CfnInstance(s, 'R', {}),
  },
  EC2InstanceDetailedMonitoringEnabled: {
    meets: (s) => new ec2.CfnInstance(s, 'R', { monitoring: true }),
    fails: (s) => new ec2.CfnInstance(s, 'R', {}),
  },
  EC2InstanceProfileAttached: {
    meets: (s) => new ec2.CfnInstance(s, 'R', { iamInstanceProfile: 'profile' }),
    fails: (s) => new ec2.CfnInstance(s, 'R', {}),
  },
  EC2RestrictedSSH: {
    meets: (s) => new ec2.CfnSecurityGroup(s, 'R', { groupDescription: 'g', securityGroupIngress: [{ ipProtocol: 'tcp', fromPort: 22, toPort: 22, cidrIp: '10.0.0.0/8' }] }),
    fails: (s) => new ec2.CfnSecurityGroup(s, 'R', { groupDescription: 'g', securityGroupIngress: [{ ipProtocol: 'tcp', fromPort: 22, toPort: 22, cidrIp: '0.0.0.0/0' }] }),
  },
  ECSTaskDefinitionContainerLogging: {
    meets: (s) => new ecs.CfnTaskDefinition(s, 'R', { containerDefinitions: [{ name: 'a', image: 'a', logConfiguration: { logDriver: 'awslogs' } }] }),
    fails: (s) => new ecs.CfnTaskDefinition(s, 'R', { containerDefinitions: [{ name: 'a', image: 'a' }] }),
  },
  EFSInBackupPlan: {
    meets: (s) => inBackupPlan(s, new efs.CfnFileSystem(s, 'R', {}), (ref) => `arn:aws:elasticfilesystem:eu-west-1:123456789012:file-system/${ref}`),
    fails: (s) => new efs.CfnFileSystem(s, 'R', {}),
  },
  EKSClusterControlPlaneLogs: {
    meets: (s) => eksCluster(s, { logging: { clusterLogging: { enabledTypes: ['api', 'audit', 'authenticator', 'controllerManager', 'scheduler'].map((type) => ({ type })) } } }),
    fails: (s) => eksCluster(s, {}),
  },
  EKSClusterNoEndpointPublicAccess: {
    meets: (s) => eksCluster(s, { resourcesVpcConfig: { subnetIds: ['subnet-1'], endpointPublicAccess: false } }),
    fails: (s) => eksCluster(s, { resourcesVpcConfig: { subnetIds: ['subnet-1'], endpointPublicAccess: true } }),
  },
  ELBACMCertificateRequired: {
    meets: (s) => new elb.CfnLoadBalancer(s, 'R', { listeners: [{ instancePort: '80', loadBalancerPort: '443', protocol: 'HTTPS', sslCertificateId: 'arn:aws:acm:eu-west-1:123456789012:certificate/x' }] }),
    fails: (s) => new elb.CfnLoadBalancer(s, 'R', { listeners: [{ instancePort: '80', loadBalancerPort: '443', protocol: 'HTTPS', sslCertificateId: 'arn:aws:iam::123456789012:server-certificate/x' }] }),
  },
  ElastiCacheRedisClusterAutomaticBackup: {
    meets: (s) => new elasticache.CfnReplicationGroup(s, 'R', { replicationGroupDescription: 'r', engine: 'redis', snapshotRetentionLimit: 15 }),
    fails: (s) => new elasticache.CfnReplicationGroup(s, 'R', { replicationGroupDescription: 'r', engine: 'redis' }),
  },
  KinesisDataStreamSSE: {
    meets: (s) => new kinesis.CfnStream(s, 'R', { streamEncryption: { encryptionType: 'KMS', keyId: 'alias/aws/kinesis' } }),
    fails: (s) => new kinesis.CfnStream(s, 'R', {}),
  },
  NeptuneClusterBackupRetentionPeriod: {
    meets: (s) => new neptune.CfnDBCluster(s, 'R', { backupRetentionPeriod: 7 }),
    fails: (s) => new neptune.CfnDBCluster(s, 'R', { backupRetentionPeriod: 1 }),
  },
  NeptuneClusterEncryptionAtRest: {
    meets: (s) => new neptune.CfnDBCluster(s, 'R', { storageEncrypted: true }),
    fails: (s) => new neptune.CfnDBCluster(s, 'R', {}),
  },
  NeptuneClusterIAMAuth: {
    meets: (s) => new neptune.CfnDBCluster(s, 'R', { iamAuthEnabled: true }),
    fails: (s) => new neptune.CfnDBCluster(s, 'R', {}),
  },
  RDSInBackupPlan: {
    meets: (s) => inBackupPlan(s, new rds.CfnDBInstance(s, 'R', { dbInstanceClass: 'db.t3.micro', dbInstanceIdentifier: 'db' }), (ref) => `arn:aws:rds:eu-west-1:123456789012:db:${ref}`),
    fails: (s) => new rds.CfnDBInstance(s, 'R', { dbInstanceClass: 'db.t3.micro', dbInstanceIdentifier: 'db' }),
  },
  RDSInstanceBackupEnabled: {
    meets: (s) => new rds.CfnDBInstance(s, 'R', { dbInstanceClass: 'db.t3.micro', backupRetentionPeriod: 7 }),
    fails: (s) => new rds.CfnDBInstance(s, 'R', { dbInstanceClass: 'db.t3.micro', backupRetentionPeriod: 0 }),
  },
  RedshiftBackupEnabled: {
    meets: (s) => redshiftCluster(s, { automatedSnapshotRetentionPeriod: 7 }),
    fails: (s) => redshiftCluster(s, { automatedSnapshotRetentionPeriod: 0 }),
  },
  RedshiftEnhancedVPCRoutingEnabled: {
    meets: (s) => redshiftCluster(s, { enhancedVpcRouting: true }),
    fails: (s) => redshiftCluster(s, {}),
  },
  S3BucketDefaultLockEnabled: {
    meets: (s) => new s3.CfnBucket(s, 'R', { objectLockEnabled: true, objectLockConfiguration: { objectLockEnabled: 'Enabled' } }),
    fails: (s) => new s3.CfnBucket(s, 'R', {}),
  },
  S3BucketVersioningEnabled: {
    meets: (s) => new s3.CfnBucket(s, 'R', { versioningConfiguration: { status: 'Enabled' } }),
    fails: (s) => new s3.CfnBucket(s, 'R', {}),
  },
  SecretsManagerRotationEnabled: {
    meets: (s) => {
      const secret = new secretsmanager.CfnSecret(s, 'R', {});
      new secretsmanager.CfnRotationSchedule(s, 'Rotation', { secretId: secret.ref, rotationRules: { automaticallyAfterDays: 30 }, rotationLambdaArn: 'arn:aws:lambda:eu-west-1:123456789012:function:f' });
      return secret;
    },
    fails: (s) => new secretsmanager.CfnSecret(s, 'R', {}),
  },
  StepFunctionStateMachineAllLogsToCloudWatch: {
    meets: (s) => new sfn.CfnStateMachine(s, 'R', { roleArn: 'arn:aws:iam::123456789012:role/r', loggingConfiguration: { level: 'ALL', destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: 'arn:aws:logs:eu-west-1:123456789012:log-group:g' } }] } }),
    fails: (s) => new sfn.CfnStateMachine(s, 'R', { roleArn: 'arn:aws:iam::123456789012:role/r', loggingConfiguration: { level: 'ERROR' } }),
  },
  LogGroupRetentionOneYear: {
    meets: (s) => new logs.CfnLogGroup(s, 'R', { retentionInDays: 400 }),
    fails: (s) => new logs.CfnLogGroup(s, 'R', { retentionInDays: 30 }),
  },
  LaunchTemplatePublicIpDisabled: {
    meets: (s) => new ec2.CfnLaunchTemplate(s, 'R', { launchTemplateData: { networkInterfaces: [{ deviceIndex: 0, associatePublicIpAddress: false }] } }),
    fails: (s) => new ec2.CfnLaunchTemplate(s, 'R', { launchTemplateData: { networkInterfaces: [{ deviceIndex: 0, associatePublicIpAddress: true }] } }),
  },
  ListenerTls12: {
    meets: (s) => new elbv2.CfnListener(s, 'R', { loadBalancerArn: 'arn', protocol: 'HTTPS', port: 443, sslPolicy: elbv2.SslPolicy.TLS13_12_RES_PQ, defaultActions: [] }),
    fails: (s) => new elbv2.CfnListener(s, 'R', { loadBalancerArn: 'arn', protocol: 'HTTPS', port: 443, sslPolicy: elbv2.SslPolicy.TLS13_10, defaultActions: [] }),
  },
  ComputeNoPublicIngress: {
    meets: (s) => computeGroup(s, '10.0.0.0/16'),
    fails: (s) => computeGroup(s, '0.0.0.0/0'),
  },
  PublicLoadBalancerWaf: {
    meets: (s) => {
      const alb = new elbv2.CfnLoadBalancer(s, 'R', { scheme: 'internet-facing', type: 'application', subnets: ['a', 'b'] });
      new wafv2.CfnWebACLAssociation(s, 'Waf', { resourceArn: alb.ref, webAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/w/1' });
      return alb;
    },
    fails: (s) => new elbv2.CfnLoadBalancer(s, 'R', { scheme: 'internet-facing', type: 'application', subnets: ['a', 'b'] }),
  },
  ListenerHttpsOnly: {
    meets: (s) => new elbv2.CfnListener(s, 'R', {
      loadBalancerArn: 'arn', protocol: 'HTTP', port: 80, defaultActions: [{ type: 'redirect', redirectConfig: { protocol: 'HTTPS', port: '443', statusCode: 'HTTP_301' } }],
    }),
    fails: (s) => new elbv2.CfnListener(s, 'R', { loadBalancerArn: 'arn', protocol: 'HTTP', port: 80, defaultActions: [{ type: 'forward', targetGroupArn: 'arn:tg' }] }),
  },
  LogGroupCardDataMasked: {
    meets: (s) => new logs.LogGroup(s, 'R', {
      dataProtectionPolicy: new logs.DataProtectionPolicy({ identifiers: [logs.DataIdentifier.CREDITCARDNUMBER] }),
    }).node.defaultChild as logs.CfnLogGroup,
    fails: (s) => new logs.CfnLogGroup(s, 'R', {}),
  },
  WebAclLogging: {
    meets: (s) => {
      const acl = webAcl(s);
      new wafv2.CfnLoggingConfiguration(s, 'Logging', { resourceArn: acl.attrArn, logDestinationConfigs: ['arn:aws:logs:eu-west-1:123456789012:log-group:aws-waf-logs-x'] });
      return acl;
    },
    fails: (s) => webAcl(s),
  },
  WebAclNotEmpty: {
    meets: (s) => webAcl(s, [{
      name: 'r',
      priority: 0,
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesCommonRuleSet' } },
      overrideAction: { none: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'r', sampledRequestsEnabled: true },
    }]),
    fails: (s) => webAcl(s),
  },
  VpcFlowLogsAll: {
    meets: (s) => {
      const vpc = new ec2.CfnVPC(s, 'R', { cidrBlock: '10.0.0.0/16' });
      new ec2.CfnFlowLog(s, 'Flow', { resourceId: vpc.ref, resourceType: 'VPC', trafficType: 'ALL', logDestinationType: 's3', logDestination: 'arn:aws:s3:::b' });
      return vpc;
    },
    // A flow log of rejected traffic only does not record what was let in.
    fails: (s) => {
      const vpc = new ec2.CfnVPC(s, 'R', { cidrBlock: '10.0.0.0/16' });
      new ec2.CfnFlowLog(s, 'Flow', { resourceId: vpc.ref, resourceType: 'VPC', trafficType: 'REJECT', logDestinationType: 's3', logDestination: 'arn:aws:s3:::b' });
      return vpc;
    },
  },
  EncryptedWithCustomerKey: {
    meets: (s) => new logs.LogGroup(s, 'R', { encryptionKey: new kms.Key(s, 'Key') }).node.defaultChild,
    // A bucket under S3's own keys (SSE-S3) and a topic under AWS's managed key are not under a key of yours.
    fails: (s) => {
      new sns.CfnTopic(s, 'Topic', { kmsMasterKeyId: 'alias/aws/sns' });
      return new s3.Bucket(s, 'R', { encryption: s3.BucketEncryption.S3_MANAGED }).node.defaultChild;
    },
  },
  LoadBalancerDropsInvalidHeaders: {
    meets: (s) => new elbv2.CfnLoadBalancer(s, 'R', { loadBalancerAttributes: [{ key: 'routing.http.drop_invalid_header_fields.enabled', value: 'true' }] }),
    fails: (s) => new elbv2.CfnLoadBalancer(s, 'R', {}),
  },
  CustomerKeyRotated: {
    meets: (s) => new kms.CfnKey(s, 'R', { enableKeyRotation: true }),
    fails: (s) => new kms.CfnKey(s, 'R', {}),
  },
  TaskSecretsNotInEnvironment: {
    meets: (s) => new ecs.CfnTaskDefinition(s, 'R', {
      containerDefinitions: [{ name: 'c', image: 'i', environment: [{ name: 'PORT', value: '8080' }], secrets: [{ name: 'DB_PASSWORD', valueFrom: 'arn:s' }] }],
    }),
    fails: (s) => new ecs.CfnTaskDefinition(s, 'R', { containerDefinitions: [{ name: 'c', image: 'i', environment: [{ name: 'DB_PASSWORD', value: 'x' }] }] }),
  },
  // The Auto Scaling group's side: test/ec2-signal.test.ts.
  DeploymentBacksOut: {
    meets: (s) => new ecs.CfnService(s, 'R', {
      deploymentConfiguration: {
        deploymentCircuitBreaker: { enable: true, rollback: true },
        alarms: { enable: true, rollback: true, alarmNames: ['app-fw-target-5xx'] },
      },
    }),
    fails: (s) => new ecs.CfnService(s, 'R', { deploymentConfiguration: { deploymentCircuitBreaker: { enable: true, rollback: true } } }),
  },
  AlarmNotifies: {
    meets: (s) => alarm(s, { alarmActions: ['arn:aws:sns:eu-west-1:111111111111:alarms'] }),
    fails: (s) => alarm(s, { alarmActions: ['arn:aws:sns:eu-west-1:111111111111:alarms'], actionsEnabled: false }),
  },
};

function alarm(s: Stack, props: Partial<cloudwatch.CfnAlarmProps>): cloudwatch.CfnAlarm {
  return new cloudwatch.CfnAlarm(s, 'R', {
    comparisonOperator: 'GreaterThanThreshold',
    evaluationPeriods: 1,
    threshold: 1,
    metricName: 'm',
    namespace: 'n',
    period: 60,
    statistic: 'Sum',
    ...props,
  });
}

function webAcl(s: Stack, rules?: wafv2.CfnWebACL.RuleProperty[]): wafv2.CfnWebACL {
  return new wafv2.CfnWebACL(s, 'R', {
    scope: 'REGIONAL', defaultAction: { allow: {} }, visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'm', sampledRequestsEnabled: true }, rules,
  });
}

function distribution(s: Stack, config: object, originProtocols = ['TLSv1.2']) {
  return new cloudfront.CfnDistribution(s, 'R', {
    distributionConfig: {
      enabled: true,
      defaultCacheBehavior: { targetOriginId: 'o', viewerProtocolPolicy: 'https-only' },
      origins: [{ id: 'o', domainName: 'example.com', customOriginConfig: { originProtocolPolicy: 'https-only', originSslProtocols: originProtocols } }],
      ...config,
    },
  });
}

/** A distribution whose origin is a bucket of the stack, with or without an origin access control. */
function s3Distribution(s: Stack, originAccessControlId: string | undefined) {
  const bucket = new s3.CfnBucket(s, 'Origin', {});
  return new cloudfront.CfnDistribution(s, 'R', {
    distributionConfig: {
      enabled: true,
      defaultCacheBehavior: { targetOriginId: 'o', viewerProtocolPolicy: 'https-only' },
      origins: [{ id: 'o', domainName: bucket.attrRegionalDomainName, s3OriginConfig: {}, originAccessControlId }],
    },
  });
}

function codebuildProject(s: Stack, environmentVariables: codebuild.CfnProject.EnvironmentVariableProperty[]) {
  return new codebuild.CfnProject(s, 'R', {
    artifacts: { type: 'NO_ARTIFACTS' },
    serviceRole: 'arn:aws:iam::123456789012:role/r',
    source: { type: 'NO_SOURCE', buildSpec: 'x' },
    environment: { computeType: 'BUILD_GENERAL1_SMALL', image: 'aws/codebuild/standard:7.0', type: 'LINUX_CONTAINER', environmentVariables },
  });
}

function eksCluster(s: Stack, props: Partial<eks.CfnClusterProps>) {
  return new eks.CfnCluster(s, 'R', { roleArn: 'arn:aws:iam::123456789012:role/r', resourcesVpcConfig: { subnetIds: ['subnet-1'] }, ...props });
}

function redshiftCluster(s: Stack, props: Partial<redshift.CfnClusterProps>) {
  return new redshift.CfnCluster(s, 'R', { clusterType: 'single-node', dbName: 'd', masterUsername: 'u', nodeType: 'ra3.xlplus', ...props });
}

/** A backup plan whose selection names the resource by an ARN holding its Ref (as cdk-nag matches it). */
function inBackupPlan(s: Stack, resource: any, arnOf: (ref: string) => string) {
  const plan = new backup.CfnBackupPlan(s, 'Plan', { backupPlan: { backupPlanName: 'p', backupPlanRule: [{ ruleName: 'r', targetBackupVault: 'v' }] } });
  const arn = arnOf(resource.ref);
  new backup.CfnBackupSelection(s, 'Selection', { backupPlanId: plan.ref, backupSelection: { iamRoleArn: 'arn:aws:iam::123456789012:role/r', selectionName: 's', resources: [arn] } });
  return resource;
}

/** A security group a Fargate service runs in, with one ingress rule from `cidr`. */
function computeGroup(s: Stack, cidr: string) {
  const group = new ec2.CfnSecurityGroup(s, 'R', { groupDescription: 'g', securityGroupIngress: [{ ipProtocol: 'tcp', fromPort: 8080, toPort: 8080, cidrIp: cidr }] });
  new ecs.CfnService(s, 'Service', { networkConfiguration: { awsvpcConfiguration: { subnets: ['subnet-1'], securityGroups: [group.attrGroupId] } } });
  return group;
}
