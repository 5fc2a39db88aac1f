"""Derives elbv2-attributes.json: the listener and load-balancer attribute keys Elastic Load Balancing documents, with
the values it lists for some of them, from the ELBv2 service model that the PyPI package botocore ships (the model
AWS publishes for its SDKs). Usage: python3 tools/aws/elbv2-attributes/derive.py botocore-1.44.8-py3-none-any.whl.
Writes packages/core/aws/elbv2-attributes/elbv2-attributes.json. Not run in CI.

Each key is documented in the shapes ListenerAttribute.Key and LoadBalancerAttribute.Key as an HTML list item
`<code>key</code> - text`; "The possible values are <code>a</code>, ..." in that text gives its values.
"""
import gzip
import hashlib
import json
import pathlib
import re
import sys
import zipfile

WHEEL_FILE = 'botocore-1.44.8-py3-none-any.whl'
MODEL = 'botocore/data/elbv2/2015-12-01/service-2.json.gz'
# The derived file stays in the package, where the tests read it; this script is not published.
OUTPUT = pathlib.Path(__file__).resolve().parents[3] / 'packages/core/aws/elbv2-attributes/elbv2-attributes.json'


def keys(documentation: str) -> dict:
    result = {}
    for item in re.findall(r'<li>\s*<p>\s*(.*?)</p>\s*</li>', documentation, re.S):
        key = re.match(r'<code>([a-z0-9_.]+)</code>\s*-', item)
        if not key:
            continue
        possible = re.search(r'[Tt]he possible values are (.*?)\.', item)
        result[key.group(1)] = sorted(re.findall(r'<code>([^<]+)</code>', possible.group(1))) if possible else None
    return dict(sorted(result.items()))


def main() -> None:
    wheel = pathlib.Path(sys.argv[1])
    if wheel.name != WHEEL_FILE:
        sys.exit(f'expected {WHEEL_FILE}, got {wheel.name}')
    with zipfile.ZipFile(wheel) as archive:
        raw = archive.read(MODEL)
    shapes = json.loads(gzip.decompress(raw))['shapes']
    out = {
        'provenance': {
            'package': 'botocore', 'wheel': WHEEL_FILE, 'wheelSha256': hashlib.sha256(wheel.read_bytes()).hexdigest(),
            'path': MODEL, 'shapes': ['ListenerAttribute.Key', 'LoadBalancerAttribute.Key'],
        },
        'listener': keys(shapes['ListenerAttribute']['members']['Key']['documentation']),
        'loadBalancer': keys(shapes['LoadBalancerAttribute']['members']['Key']['documentation']),
    }
    OUTPUT.write_text(json.dumps(out, indent=2, sort_keys=True) + '\n')
    print(f'wrote {OUTPUT}: {len(out["listener"])} listener and {len(out["loadBalancer"])} load-balancer keys')


if __name__ == '__main__':
    main()
