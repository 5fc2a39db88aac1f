"""Derives resource-schemas.json: for each CloudFormation resource type the framework emits, what CloudFormation's own
resource provider schema says a change does to it: `primaryIdentifier` (what names it, and what auto-import adopts it
by) and `createOnlyProperties` (a change replaces it). Read from the provider schemas the pinned cfn-lint bundles
(test/dependencies/python/cfn-lint.txt; cfn-lint refreshes them from CloudFormation's published schemas), region
us-east-1. Usage, with the Python of the virtual environment scripts/setup.sh makes for cfn-lint:
.tools/cfn-lint/bin/python3 tools/aws/cloudformation-schemas/derive.py [--check] TYPE... (the types are those already in
the file plus any given). With --check, prints the file it would write instead of writing it; the lifecycle test runs
that in CI and compares.
"""
import json
import pathlib
import sys

from cfnlint.version import __version__ as CFN_LINT_VERSION
from cfnlint.schema.manager import PROVIDER_SCHEMA_MANAGER

OUTPUT = pathlib.Path(__file__).resolve().parents[3] / 'packages/core/aws/cloudformation/resource-schemas.json'
REGION = 'us-east-1'


def derive(types):
    result = {}
    for type_name in sorted(set(types)):
        if type_name.startswith('Custom::') or type_name.startswith('AWS::CDK::'):
            continue
        schema = PROVIDER_SCHEMA_MANAGER.get_resource_schema(REGION, type_name).schema
        strip = lambda pointers: sorted(p.replace('/properties/', '', 1) for p in pointers)
        result[type_name] = {
            'primaryIdentifier': strip(schema.get('primaryIdentifier', [])),
            'createOnlyProperties': strip(schema.get('createOnlyProperties', [])),
        }
    return {
        'source': f'cfn-lint {CFN_LINT_VERSION} bundled provider schemas ({REGION}), via tools/aws/cloudformation-schemas/derive.py',
        'types': result,
    }


def main(argv):
    check = '--check' in argv
    given = [a for a in argv if not a.startswith('--')]
    existing = json.loads(OUTPUT.read_text())['types'].keys() if OUTPUT.exists() else []
    text = json.dumps(derive([*existing, *given]), indent=1) + '\n'
    if check:
        sys.stdout.write(text)
    else:
        OUTPUT.write_text(text)


if __name__ == '__main__':
    main(sys.argv[1:])
