"""Validates OSCAL assessment-results and component-definition documents against compliance-trestle's models, which are
generated from NIST's OSCAL JSON schema (trestle.oscal.OSCAL_VERSION names the release). Prints `valid <file>` or
`invalid <file>: <why>` for each file given, and exits 1 when any is invalid. Run by validate.sh, in a virtual
environment of its own."""
import json
import sys

from trestle.oscal import OSCAL_VERSION
from trestle.oscal.assessment_results import AssessmentResults
from trestle.oscal.component import ComponentDefinition

failed = False
for name in sys.argv[1:]:
    with open(name, encoding='utf-8') as f:
        document = json.load(f)
    try:
        root = 'component-definition' if 'component-definition' in document else 'assessment-results'
        version = document[root]['metadata']['oscal-version']
        if root == 'component-definition':
            definition = ComponentDefinition.model_validate(document[root])
            counted = f'{len(definition.components or [])} components'
        else:
            results = AssessmentResults.model_validate(document[root])
            counted = f'{len(results.results[0].observations or [])} observations'
        if version != OSCAL_VERSION:
            raise ValueError(f'oscal-version {version}, the models are {OSCAL_VERSION}')
        print(f'valid {name}: OSCAL {OSCAL_VERSION}, {counted}')
    except Exception as error:  # pydantic's ValidationError, a missing root key, the version
        failed = True
        first = error.errors()[0] if hasattr(error, 'errors') else None
        where = f" at {'.'.join(str(p) for p in first['loc'])}: {first['msg']}" if first else ''
        print(f'invalid {name}: {str(error).splitlines()[0]}{where}')
sys.exit(1 if failed else 0)
