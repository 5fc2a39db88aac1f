"""Derives packages/core/aws/preflight/operation-shapes.json: for each AWS operation `fw-deploy preflight` calls, the
members of its input and output as the service's own model gives them (botocore's service-2.json, the data the AWS CLI
and boto3 serialise with; the JavaScript SDK v3 is generated from the same models and names members alike), and the
errors the model lists for it. The tests check every mocked call's input and response against it, so a mock cannot
answer with a member the service does not have. Read from the botocore that the pinned cfn-lint installs
(test/dependencies/python/cfn-lint.txt). Usage: .tools/cfn-lint/bin/python3 tools/aws/preflight-shapes/derive.py [--check]
"""
import json
import pathlib
import sys

import botocore
from botocore.loaders import Loader

OUT = pathlib.Path(__file__).resolve().parents[3] / 'packages/core/aws/preflight/operation-shapes.json'
# The SDK v3 client package of each botocore service, and the operations preflight calls.
OPERATIONS = {
    ('sts', '@aws-sdk/client-sts'): ['GetCallerIdentity'],
    ('ec2', '@aws-sdk/client-ec2'): ['DescribeVpcAttribute', 'DescribeSubnets', 'DescribeRouteTables', 'DescribeVpcEndpoints',
                                     'DescribeAccountAttributes', 'DescribeAddresses', 'DescribeImages'],
    ('ecr', '@aws-sdk/client-ecr'): ['DescribePullThroughCacheRules', 'DescribeImages', 'BatchGetImage', 'GetDownloadUrlForLayer'],
    ('secretsmanager', '@aws-sdk/client-secrets-manager'): ['DescribeSecret'],
    ('kms', '@aws-sdk/client-kms'): ['DescribeKey', 'GetKeyPolicy'],
    ('route53', '@aws-sdk/client-route-53'): ['GetHostedZone'],
    ('acm', '@aws-sdk/client-acm'): ['DescribeCertificate'],
    ('config', '@aws-sdk/client-config-service'): ['DescribeConfigurationRecorderStatus'],
    ('securityhub', '@aws-sdk/client-securityhub'): ['DescribeHub'],
    ('elbv2', '@aws-sdk/client-elastic-load-balancing-v2'): ['DescribeAccountLimits', 'DescribeTargetGroups'],
    ('service-quotas', '@aws-sdk/client-service-quotas'): ['ListServiceQuotas'],
    ('cloudformation', '@aws-sdk/client-cloudformation'): ['GetTemplate'],
}


def tree(shapes, name, depth=0):
    """A shape as JSON: a structure's members, a list's member in a one-element list, a map's value under "*", else
    its type (`string`, `boolean`, `integer`, `long`, `double`, `timestamp`, `blob`), an enum's values kept."""
    shape = shapes[name]
    kind = shape['type']
    if depth > 12:
        return kind
    if kind == 'structure':
        return {member: tree(shapes, spec['shape'], depth + 1) for member, spec in shape.get('members', {}).items()}
    if kind == 'list':
        return [tree(shapes, shape['member']['shape'], depth + 1)]
    if kind == 'map':
        return {'*': tree(shapes, shape['value']['shape'], depth + 1)}
    if kind == 'string' and 'enum' in shape:
        return {'enum': shape['enum']}
    return kind


def main():
    loader = Loader()
    out = {'source': f'botocore {botocore.__version__} service models, via tools/aws/preflight-shapes/derive.py', 'clients': {}}
    for (service, client), operations in OPERATIONS.items():
        model = loader.load_service_model(service, 'service-2')
        shapes = model['shapes']
        entry = out['clients'].setdefault(client, {'service': service, 'apiVersion': model['metadata']['apiVersion'], 'operations': {}})
        for op in operations:
            spec = model['operations'][op]
            entry['operations'][op] = {
                'input': tree(shapes, spec['input']['shape']) if 'input' in spec else {},
                'output': tree(shapes, spec['output']['shape']) if 'output' in spec else {},
                'errors': sorted(e['shape'] for e in spec.get('errors', [])),
            }
    text = json.dumps(out, indent=1, sort_keys=True) + '\n'
    if '--check' in sys.argv:
        print(text, end='')
    else:
        OUT.write_text(text)


main()
