import type { CfnResource } from 'aws-cdk-lib';
import { rules as nag, type NagRuleResult } from 'cdk-nag';
import { AlarmNotifies } from './rules/alarm-notifies';
import { ComputeNoPublicIngress } from './rules/compute-no-public-ingress';
import { CustomerKeyRotated } from './rules/customer-key-rotated';
import { DeploymentBacksOut } from './rules/deployment-backs-out';
import { EncryptedWithCustomerKey } from './rules/encrypted-with-customer-key';
import { LaunchTemplatePublicIpDisabled } from './rules/launch-template-public-ip-disabled';
import { ListenerHttpsOnly } from './rules/listener-https-only';
import { ListenerTls12 } from './rules/listener-tls12';
import { LoadBalancerDropsInvalidHeaders } from './rules/load-balancer-drops-invalid-headers';
import { LogGroupCardDataMasked } from './rules/log-group-card-data-masked';
import { LogGroupRetentionOneYear } from './rules/log-group-retention-one-year';
import { PublicLoadBalancerWaf } from './rules/public-load-balancer-waf';
import { TaskSecretsNotInEnvironment } from './rules/task-secrets-not-in-environment';
import { VpcFlowLogsAll } from './rules/vpc-flow-logs-all';
import { WebAclLogging } from './rules/web-acl-logging';
import { WebAclNotEmpty } from './rules/web-acl-not-empty';

/** The implementation of every rule the mapping names, cdk-nag's and ours, by the name the mapping gives it. */
export const RULE_IMPLEMENTATIONS: Record<string, (node: CfnResource) => NagRuleResult> = {
  APIGWCacheEnabledAndEncrypted: nag.apigw.APIGWCacheEnabledAndEncrypted,
  APIGWXrayEnabled: nag.apigw.APIGWXrayEnabled,
  AppSyncGraphQLRequestLogging: nag.appsync.AppSyncGraphQLRequestLogging,
  AuroraMySQLPostgresIAMAuth: nag.rds.AuroraMySQLPostgresIAMAuth,
  CloudFrontDistributionAccessLogging: nag.cloudfront.CloudFrontDistributionAccessLogging,
  CloudFrontDistributionHttpsViewerNoOutdatedSSL: nag.cloudfront.CloudFrontDistributionHttpsViewerNoOutdatedSSL,
  CloudFrontDistributionNoOutdatedSSL: nag.cloudfront.CloudFrontDistributionNoOutdatedSSL,
  CloudFrontDistributionS3OriginAccessControl: nag.cloudfront.CloudFrontDistributionS3OriginAccessControl,
  CloudFrontDistributionWAFIntegration: nag.cloudfront.CloudFrontDistributionWAFIntegration,
  CodeBuildProjectEnvVarAwsCred: nag.codebuild.CodeBuildProjectEnvVarAwsCred,
  DAXEncrypted: nag.dynamodb.DAXEncrypted,
  DocumentDBClusterEncryptionAtRest: nag.documentdb.DocumentDBClusterEncryptionAtRest,
  DynamoDBInBackupPlan: nag.dynamodb.DynamoDBInBackupPlan,
  DynamoDBPITREnabled: nag.dynamodb.DynamoDBPITREnabled,
  EC2EBSInBackupPlan: nag.ec2.EC2EBSInBackupPlan,
  EC2IMDSv2Enabled: nag.ec2.EC2IMDSv2Enabled,
  EC2InstanceDetailedMonitoringEnabled: nag.ec2.EC2InstanceDetailedMonitoringEnabled,
  EC2InstanceProfileAttached: nag.ec2.EC2InstanceProfileAttached,
  EC2RestrictedSSH: nag.ec2.EC2RestrictedSSH,
  ECSTaskDefinitionContainerLogging: nag.ecs.ECSTaskDefinitionContainerLogging,
  EFSInBackupPlan: nag.efs.EFSInBackupPlan,
  EKSClusterControlPlaneLogs: nag.eks.EKSClusterControlPlaneLogs,
  EKSClusterNoEndpointPublicAccess: nag.eks.EKSClusterNoEndpointPublicAccess,
  ELBACMCertificateRequired: nag.elb.ELBACMCertificateRequired,
  ElastiCacheRedisClusterAutomaticBackup: nag.elasticache.ElastiCacheRedisClusterAutomaticBackup,
  KinesisDataStreamSSE: nag.kinesis.KinesisDataStreamSSE,
  NeptuneClusterBackupRetentionPeriod: nag.neptune.NeptuneClusterBackupRetentionPeriod,
  NeptuneClusterEncryptionAtRest: nag.neptune.NeptuneClusterEncryptionAtRest,
  NeptuneClusterIAMAuth: nag.neptune.NeptuneClusterIAMAuth,
  RDSInBackupPlan: nag.rds.RDSInBackupPlan,
  RDSInstanceBackupEnabled: nag.rds.RDSInstanceBackupEnabled,
  RedshiftBackupEnabled: nag.redshift.RedshiftBackupEnabled,
  RedshiftEnhancedVPCRoutingEnabled: nag.redshift.RedshiftEnhancedVPCRoutingEnabled,
  S3BucketDefaultLockEnabled: nag.s3.S3BucketDefaultLockEnabled,
  S3BucketVersioningEnabled: nag.s3.S3BucketVersioningEnabled,
  SecretsManagerRotationEnabled: nag.secretsmanager.SecretsManagerRotationEnabled,
  StepFunctionStateMachineAllLogsToCloudWatch: nag.stepfunctions.StepFunctionStateMachineAllLogsToCloudWatch,
  LogGroupRetentionOneYear,
  LaunchTemplatePublicIpDisabled,
  ListenerTls12,
  ComputeNoPublicIngress,
  PublicLoadBalancerWaf,
  ListenerHttpsOnly,
  LogGroupCardDataMasked,
  WebAclLogging,
  WebAclNotEmpty,
  VpcFlowLogsAll,
  EncryptedWithCustomerKey,
  LoadBalancerDropsInvalidHeaders,
  CustomerKeyRotated,
  TaskSecretsNotInEnvironment,
  DeploymentBacksOut,
  AlarmNotifies,
};
