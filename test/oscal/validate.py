"""Validates OSCAL assessment-results and component-definition documents against compliance-trestle's models, which are
generated from NIST's OSCAL JSON schema (trestle.oscal.OSCAL_VERSION names the release), and CycloneDX bills of materials
against CycloneDX's strict JSON schema of the document's specVersion, as cyclonedx-python-lib ships and applies it, then
read by that library, which refuses a dependency on a component the document does not list.
Prints `valid <file>` or `invalid <file>: <why>` for each file given, and exits 1 when any is invalid. Run by
validate.sh, in a virtual environment of its own."""
import json
import sys

from cyclonedx.model.bom import Bom
from cyclonedx.schema import SchemaVersion
from cyclonedx.validation.json import JsonStrictValidator
from trestle.oscal import OSCAL_VERSION
from trestle.oscal.assessment_results import AssessmentResults
from trestle.oscal.component import ComponentDefinition

failed = False
for name in sys.argv[1:]:
    with open(name, encoding='utf-8') as f:
        text = f.read()
    document = json.loads(text)
    if document.get('bomFormat') == 'CycloneDX':
        error = JsonStrictValidator(SchemaVersion.from_version(document['specVersion'])).validate_str(text)
        if error:
            failed = True
            print(f'invalid {name}: {str(error.data.message)} at {"/".join(str(p) for p in error.data.absolute_path)}')
            continue
        try:
            Bom.from_json(document).validate()  # pylint: disable=no-member (from_json is added by py-serializable)
        except Exception as refused:  # the library's dependency and reference exceptions
            failed = True
            print(f'invalid {name}: {type(refused).__name__}: {refused}')
        else:
            print(f'valid {name}: CycloneDX {document["specVersion"]}, {len(document["components"])} components, '
                  f'{len(document.get("vulnerabilities", []))} vulnerabilities')
        continue
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
