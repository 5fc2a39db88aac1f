"""Derives pci-dss-4.0.json: the AWS Config rules of AWS's conformance pack "Operational Best Practices for PCI DSS
4.0 (including global resource types)", each with the PCI DSS v4.0 requirements AWS maps it to and the check that sees
the same property at synth time. Not run in CI; test/pci-dss-401.test.ts compares the result with PciDss401Checks.

Usage: python3 tools/aws/pci-dss-4/derive.py <git dir of awslabs/aws-config-rules> node_modules/cdk-nag
Writes packages/core/aws/pci-dss-4/pci-dss-4.0.json, which the product reads at synth.

Inputs:
- the pack, at COMMIT of awslabs/aws-config-rules: its rules, their sources, scopes and input parameters (the
  parameters' defaults resolved), from which the framework builds the conformance pack it can deploy;
- requirements.tsv beside this file: the (rule, requirement) rows of AWS's mapping table for the same pack, which is
  published on the AWS Config Developer Guide page REQUIREMENTS_PAGE, not in the repository (the YAML names no
  requirement); each row records the page it was read from;
- grades.tsv beside this file (hand-curated): for every (check, requirement) pair the synth-time pack uses, and pairs
  of our own for the same checks, how far a passing check goes toward the requirement (`full`, `partial`,
  `supporting`, `none`), the testing procedures it bears on, and why, in our words;
- procedures.tsv beside this file (derived by procedures.py): every PCI DSS v4.0.1 requirement, its testing procedures
  and what each examines. Every requirement named anywhere here must be in it;
- cdk-nag's rule sources at the pinned version, read to confirm that each rule named below exists and to record what
  its doc comment says it checks.
"""
import json
import pathlib
import re
import subprocess
import sys

import yaml

REPOSITORY = 'awslabs/aws-config-rules'
COMMIT = 'b54d4a6c99e105c25ca46af9305770e4ba51c422'
PACK = 'aws-config-conformance-packs/Operational-Best-Practices-for-PCI-DSS-v4.0-including-global-resourcetypes.yaml'
REQUIREMENTS_PAGE = ('https://docs.aws.amazon.com/config/latest/developerguide/'
                     'operational-best-practices-for-pci-dss-v4-including-global-resource-types.html')
CDK_NAG_VERSION = '3.0.2'
HERE = pathlib.Path(__file__).resolve().parent
# The derived file stays in the package, where the product and the tests read it; this script and its hand-curated
# input (requirements.tsv) are not published.
OUTPUT = HERE.parents[2] / 'packages/core/aws/pci-dss-4/pci-dss-4.0.json'

# Config rule -> the cdk-nag rule that reads the same property of the same resource type in a template. Each pair was
# checked by reading the cdk-nag rule's source at CDK_NAG_VERSION against the Config rule's documented evaluation.
CDK_NAG = {
    'api-gw-cache-enabled-and-encrypted': 'apigw/APIGWCacheEnabledAndEncrypted',
    'api-gw-xray-enabled': 'apigw/APIGWXrayEnabled',
    'appsync-logging-enabled': 'appsync/AppSyncGraphQLRequestLogging',
    'cloudfront-accesslogs-enabled': 'cloudfront/CloudFrontDistributionAccessLogging',
    'cloudfront-associated-with-waf': 'cloudfront/CloudFrontDistributionWAFIntegration',
    'cloudfront-no-deprecated-ssl-protocols': 'cloudfront/CloudFrontDistributionNoOutdatedSSL',
    'cloudfront-s3-origin-access-control-enabled': 'cloudfront/CloudFrontDistributionS3OriginAccessControl',
    'cloudfront-security-policy-check': 'cloudfront/CloudFrontDistributionHttpsViewerNoOutdatedSSL',
    'codebuild-project-envvar-awscred-check': 'codebuild/CodeBuildProjectEnvVarAwsCred',
    'dax-encryption-enabled': 'dynamodb/DAXEncrypted',
    'db-instance-backup-enabled': 'rds/RDSInstanceBackupEnabled',
    'docdb-cluster-encrypted': 'documentdb/DocumentDBClusterEncryptionAtRest',
    'dynamodb-in-backup-plan': 'dynamodb/DynamoDBInBackupPlan',
    'dynamodb-pitr-enabled': 'dynamodb/DynamoDBPITREnabled',
    'ebs-in-backup-plan': 'ec2/EC2EBSInBackupPlan',
    'ec2-imdsv2-check': 'ec2/EC2IMDSv2Enabled',
    'ec2-instance-detailed-monitoring-enabled': 'ec2/EC2InstanceDetailedMonitoringEnabled',
    'ec2-instance-profile-attached': 'ec2/EC2InstanceProfileAttached',
    'ecs-task-definition-log-configuration': 'ecs/ECSTaskDefinitionContainerLogging',
    'efs-in-backup-plan': 'efs/EFSInBackupPlan',
    'eks-cluster-logging-enabled': 'eks/EKSClusterControlPlaneLogs',
    'eks-endpoint-no-public-access': 'eks/EKSClusterNoEndpointPublicAccess',
    'elasticache-redis-cluster-automatic-backup-check': 'elasticache/ElastiCacheRedisClusterAutomaticBackup',
    'elb-acm-certificate-required': 'elb/ELBACMCertificateRequired',
    'kinesis-stream-encrypted': 'kinesis/KinesisDataStreamSSE',
    'neptune-cluster-backup-retention-check': 'neptune/NeptuneClusterBackupRetentionPeriod',
    'neptune-cluster-encrypted': 'neptune/NeptuneClusterEncryptionAtRest',
    'neptune-cluster-iam-database-authentication': 'neptune/NeptuneClusterIAMAuth',
    'rds-cluster-iam-authentication-enabled': 'rds/AuroraMySQLPostgresIAMAuth',
    'rds-in-backup-plan': 'rds/RDSInBackupPlan',
    'redshift-backup-enabled': 'redshift/RedshiftBackupEnabled',
    'redshift-enhanced-vpc-routing-enabled': 'redshift/RedshiftEnhancedVPCRoutingEnabled',
    'restricted-ssh': 'ec2/EC2RestrictedSSH',
    's3-bucket-default-lock-enabled': 's3/S3BucketDefaultLockEnabled',
    's3-bucket-versioning-enabled': 's3/S3BucketVersioningEnabled',
    'secretsmanager-secret-periodic-rotation': 'secretsmanager/SecretsManagerRotationEnabled',
    'step-functions-state-machine-logging-enabled': 'stepfunctions/StepFunctionStateMachineAllLogsToCloudWatch',
}

# Config rule -> our rule (src/compliance/pci-dss-401/rules/), where cdk-nag has none for the same property.
OURS = {
    # cdk-nag's CloudWatchLogGroupRetentionPeriod accepts any retention; the Config rule's default minimum is 365 days.
    'cw-loggroup-retention-period-check': 'LogGroupRetentionOneYear',
    'ec2-launch-template-public-ip-disabled': 'LaunchTemplatePublicIpDisabled',
    'wafv2-webacl-not-empty': 'WebAclNotEmpty',
}

# Our rules that no Config rule of the pack matches: the requirements are the framework's reading of PCI DSS v4.0.1.
FRAMEWORK_RULES = {
    'ListenerTls12': {
        'requirements': ['4.2.1'],
        'checks': 'An HTTPS or TLS listener of a load balancer uses a security policy that offers TLS 1.2 or later only.',
    },
    'ComputeNoPublicIngress': {
        'requirements': ['1.3.1', '1.4.1'],
        'checks': 'No security group of a task, instance or launch template admits traffic from 0.0.0.0/0 or ::/0.',
    },
    'PublicLoadBalancerWaf': {
        'requirements': ['6.4.2'],
        'checks': 'An internet-facing application load balancer has a WAF web ACL associated in its stack.',
    },
    'ListenerHttpsOnly': {
        'requirements': ['4.2.1'],
        'checks': 'A plain-HTTP listener of a load balancer only redirects to HTTPS.',
    },
    'LogGroupCardDataMasked': {
        'requirements': ['3.4.1', '3.5.1'],
        'checks': 'A log group has a data protection policy that masks card numbers.',
    },
    'WebAclLogging': {
        'requirements': ['10.2.1'],
        'checks': 'A WAF web ACL has a logging configuration in its stack.',
    },
    'VpcFlowLogsAll': {
        'requirements': ['10.2.1'],
        'checks': 'A VPC has a flow log in its stack that records all traffic, accepted and rejected.',
    },
    'EncryptedWithCustomerKey': {
        'requirements': ['3.5.1', '3.6.1'],
        'checks': 'A log group, file system, topic, database instance, secret, bucket or launch template\'s EBS volume is '
                  'encrypted under a customer-managed KMS key.',
    },
    # Security Hub's ELB.4, KMS.4 and ECS.8, where the template shows the same property.
    'LoadBalancerDropsInvalidHeaders': {
        'requirements': ['2.2.6', '6.2.4'],
        'checks': 'An application load balancer drops HTTP headers with invalid fields (Security Hub ELB.4).',
    },
    'CustomerKeyRotated': {
        'requirements': ['3.7.4'],
        'checks': 'A customer-managed symmetric KMS key rotates its key material every year (Security Hub KMS.4).',
    },
    'DeploymentBacksOut': {
        'requirements': ['6.5.1'],
        'checks': 'A change backs itself out when the new version fails: an ECS service rolls back on its circuit breaker '
                  'and on named health alarms; an Auto Scaling group\'s creation and rolling update wait for each '
                  'instance\'s signal, sent after the application answers its health check.',
    },
    'AlarmNotifies': {
        'requirements': ['12.10.5'],
        'checks': 'A CloudWatch alarm has its actions enabled and names an action for the ALARM state (as AWS Config\'s '
                  'cloudwatch-alarm-action-check with alarmActionRequired).',
    },
    'TaskSecretsNotInEnvironment': {
        'requirements': ['8.6.2'],
        'checks': 'No container of a task definition has an environment variable whose name ends like a secret\'s '
                  '(SECRET_NAME_ENDINGS); secrets are Secrets, resolved by ECS at start (Security Hub ECS.8).',
    },
}

# Rules about the account or its organisation, not about a resource a stack holds.
ACCOUNT_LEVEL = {
    'access-keys-rotated', 'cloudtrail-enabled', 'cloudtrail-security-trail-enabled', 'iam-policy-in-use',
    'macie-auto-sensitive-data-discovery-check', 'macie-status-check', 'multi-region-cloudtrail-enabled',
    's3-account-level-public-access-blocks', 'security-account-information-provided', 'shield-drt-access',
    'service-catalog-shared-within-organization',
}


def git_show(git_dir: str, path: str) -> str:
    return subprocess.run(['git', '--git-dir', git_dir, 'show', f'{COMMIT}:{path}'], check=True, capture_output=True,
                          text=True).stdout


def resolve(value, parameters):
    """The value a parameter-driven input takes when the pack is deployed with its defaults: an `Fn::If` on the
    parameter or a plain `Ref` to it alike (a `Ref` left in would name a parameter the deployed body does not declare)."""
    if isinstance(value, dict) and 'Fn::If' in value:
        value = value['Fn::If'][1]
    if isinstance(value, dict) and 'Ref' in value:
        default = parameters.get(value['Ref'], {}).get('Default', '')
        return str(default) if str(default) != '' else None
    return value


def managed_name(props: dict) -> str:
    return props['Source']['SourceIdentifier'].lower().replace('_', '-')


def cdk_nag_rule(cdk_nag: pathlib.Path, path: str) -> dict:
    source = cdk_nag / 'lib' / 'rules' / f'{path}.js'
    comment = re.search(r'/\*\*\s*\n\s*\*\s*(.+?)\n', source.read_text())
    return {'kind': 'cdk-nag', 'rule': path.split('/')[1], 'source': f'cdk-nag@{CDK_NAG_VERSION} lib/rules/{path}.js',
            'checks': comment.group(1).strip()}


GRADES = ('full', 'partial', 'supporting', 'none')


def rows(name: str) -> list:
    return [line.split('\t') for line in (HERE / name).read_text().splitlines() if line.strip() and not line.startswith('#')]


def read_procedures() -> dict:
    """procedures.tsv as {requirement: [{id, methods}]}."""
    procedures: dict = {}
    for requirement, procedure, methods in rows('procedures.tsv'):
        procedures.setdefault(requirement, []).append({'id': procedure, 'methods': methods.split(',')})
    return procedures


def read_grades(procedures: dict) -> dict:
    """grades.tsv as {check: {requirement: {grade, procedures, reason}}}, each row checked against procedures.tsv:
    `partial` and `full` name procedures of the requirement that examine configuration, `full` only procedures that
    examine nothing else; `supporting` and `none` name none."""
    grades: dict = {}
    for rule, requirement, grade, named, reason in rows('grades.tsv'):
        where = f'grades.tsv: {rule} {requirement}'
        if grade not in GRADES:
            sys.exit(f'{where}: grade {grade!r}; allowed: {", ".join(GRADES)}')
        if requirement not in procedures:
            sys.exit(f'{where}: {requirement} is not a PCI DSS v4.0.1 requirement (procedures.tsv)')
        methods = {p['id']: p['methods'] for p in procedures[requirement]}
        ids = [] if named == '-' else named.split(',')
        for pid in ids:
            if pid not in methods:
                sys.exit(f'{where}: {pid} is not a testing procedure of {requirement}; allowed: {", ".join(methods)}')
            if 'configuration' not in methods[pid]:
                sys.exit(f'{where}: {pid} examines {"/".join(methods[pid])}, nothing a template shows')
            if grade == 'full' and methods[pid] != ['configuration']:
                sys.exit(f'{where}: full, but {pid} also examines {"/".join(methods[pid])}: at most partial')
        if (grade in ('full', 'partial')) != bool(ids):
            sys.exit(f'{where}: {grade} with procedures {named!r}; full and partial name procedures, the others -')
        grades.setdefault(rule, {})[requirement] = {'grade': grade, 'procedures': ids, 'reason': reason}
    return grades


def procedures_source() -> str:
    header = (HERE / 'procedures.tsv').read_text().splitlines()[2]
    return header.removeprefix('# ').split(';')[0]


def main() -> None:
    git_dir, cdk_nag = sys.argv[1], pathlib.Path(sys.argv[2])
    version = json.loads((cdk_nag / 'package.json').read_text())['version']
    if version != CDK_NAG_VERSION:
        sys.exit(f'expected cdk-nag {CDK_NAG_VERSION}, got {version}')
    pack = yaml.safe_load(git_show(git_dir, PACK))
    procedures = read_procedures()
    requirements: dict = {}
    for rule, requirement, *_ in rows('requirements.tsv'):
        requirements.setdefault(rule, set()).add(requirement)
    unknown = sorted({q for qs in requirements.values() for q in qs} - set(procedures))
    if unknown:
        sys.exit(f'requirements.tsv: not PCI DSS v4.0.1 requirements (procedures.tsv): {unknown}')

    def order(requirement: str):
        # 1.2.5 < 10.3.1 < A1.1.2: the appendices after the twelve requirements.
        return [(1, 0) if part.startswith('A') else (0, int(part)) for part in requirement.split('.')] + [
            int(part[1:]) for part in requirement.split('.')[:1] if part.startswith('A')]

    rules = []
    for resource in pack['Resources'].values():
        props = resource['Properties']
        name = props['ConfigRuleName']
        if name in CDK_NAG:
            check = cdk_nag_rule(cdk_nag, CDK_NAG[name])
        elif name in OURS:
            check = {'kind': 'ours', 'rule': OURS[name]}
        elif name in ACCOUNT_LEVEL:
            check = {'kind': 'after-deploy', 'why': 'account'}
        else:
            check = {'kind': 'after-deploy', 'why': 'no synth-time rule'}
        inputs = {k: resolve(v, pack['Parameters']) for k, v in (props.get('InputParameters') or {}).items()}
        rules.append({
            'configRule': name,
            'sourceIdentifier': props['Source']['SourceIdentifier'],
            'resourceTypes': props.get('Scope', {}).get('ComplianceResourceTypes', []),
            'inputParameters': {k: v for k, v in inputs.items() if v is not None},
            # The guide names a rule by its managed rule's name where the pack gave it another name.
            'requirements': sorted(requirements.get(name) or requirements.get(managed_name(props), []), key=order),
            'check': check,
        })
    named = {r['configRule'] for r in rules} | {managed_name(r['Properties']) for r in pack['Resources'].values()}
    missing = sorted((set(CDK_NAG) | set(OURS) | set(requirements) | ACCOUNT_LEVEL) - named)
    unmapped = sorted(r['configRule'] for r in rules if not r['requirements'])
    if unmapped:
        sys.exit(f'no requirement in requirements.tsv for {unmapped}')
    if missing:
        sys.exit(f'named here but not in the pack: {missing}')
    grades = read_grades(procedures)
    used = {(r['check']['rule'], q) for r in rules if r['check']['kind'] != 'after-deploy' for q in r['requirements']}
    used |= {(name, q) for name, r in FRAMEWORK_RULES.items() for q in r['requirements']}
    after = {(r['configRule'], q) for r in rules if r['check']['kind'] == 'after-deploy' for q in r['requirements']}
    for rule, q in sorted((rule, q) for rule, by in grades.items() for q in by if (rule, q) in after):
        if grades[rule][q]['grade'] not in ('supporting', 'none'):
            sys.exit(f'grades.tsv: {rule} {q}: an after-deploy pair is supporting or none, not {grades[rule][q]["grade"]}')
    graded = {(rule, q) for rule, by in grades.items() for q in by if (rule, q) not in after}
    checks = {rule for rule, _ in used}
    if used - graded or {rule for rule, _ in graded} - checks:
        sys.exit(f'grades.tsv: ungraded {sorted(used - graded)}; graded, not a check {sorted({r for r, _ in graded} - checks)}')
    for rule, q in graded - used:
        grades[rule][q]['ours'] = True  # a pair AWS's table does not list: PciDss401Checks adds it to the rule
    out = {
        'provenance': {
            'repository': REPOSITORY, 'commit': COMMIT, 'file': PACK, 'requirementsFrom': REQUIREMENTS_PAGE,
            'cdkNag': CDK_NAG_VERSION, 'generator': 'tools/aws/pci-dss-4/derive.py',
        },
        'rules': sorted(rules, key=lambda r: r['configRule']),
        'frameworkRules': FRAMEWORK_RULES,
        'grades': grades,
        'procedures': procedures,
        'proceduresFrom': f'tools/aws/pci-dss-4/procedures.tsv (procedures.py, from {procedures_source()})',
    }
    OUTPUT.write_text(json.dumps(out, indent=1) + '\n')


if __name__ == '__main__':
    main()
