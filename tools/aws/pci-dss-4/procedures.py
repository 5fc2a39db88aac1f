"""Derives procedures.tsv: every PCI DSS v4.0.1 requirement and, for each, the ids of its defined-approach testing
procedures and what the assessor does in each (examines documentation, configuration or records, interviews, observes).
Not run in CI (its source is not on a fresh machine); derive.py reads the result and test/pci-dss-401.test.ts checks it.

Usage: python3 tools/aws/pci-dss-4/procedures.py <git dir of SOURCE_REPOSITORY>

The source is a public transcription of the standard, one file a requirement. Only the ids and the methods, classified
by the words below from the part of each procedure before "to verify", are kept; the standard's text is not. Where the
transcription has no procedure for a requirement, or only the heading of a service-provider or issuer procedure, the
method is `unknown`: nothing can claim to show such a procedure.
"""
import pathlib
import re
import subprocess
import sys

SOURCE_REPOSITORY = 'ngna3007/sentinelai-audit-framework'
SOURCE_COMMIT = '5939a1a8d90bb2b5879ea4de65586cd35b17ab66'
SOURCE_DIR = 'shared_data/outputs/pci_dss_v4/controls'
OUTPUT = pathlib.Path(__file__).resolve().parent / 'procedures.tsv'

# What an assessor does, by the words of the procedure's first clause. `configuration` is what a template or a
# rendered configuration can show; a configuration standard is documentation.
METHODS = {
    'documentation': r'documentation|documented|polic(y|ies)|procedures|standards|\bplans?\b|diagram|inventor|'
                     r'risk analysis|scope of work|training|agreements?|contracts?|descriptions?',
    'configuration': r'configuration(?!\s+standards)|settings|parameters|mechanisms|privileges|system components|'
                     r'\bsolution|scripts|\bexamine (?:the )?(?:data and |application and system |user )?accounts\b|'
                     r'\bexamine (?:\w+ )?controls\b',
    # "data" alone is not records: it is the data of "account data", "cardholder data", "data-flow diagram" (review 6,
    # R10); data examined as such (its sources, stores, test data) is.
    'records': r'log data|audit logs|\blogs\b|log files|files containing|\blists?\b|records|evidence|results|reports?\b|'
               r'samples?|data sources|data stores|test data|\bexamine data\b(?!-)|displays|repositories|transmissions|information sources',
    'interview': r'interview',
    'observation': r'observe|processes',
}


def git(*args: str) -> str:
    return subprocess.run(['git', '--git-dir', sys.argv[1], *args], check=True, capture_output=True, text=True).stdout


def procedures(requirement: str, text: str) -> list:
    body = text.split('Testing Procedures:', 1)
    if len(body) < 2:
        return [(requirement, 'unknown')]
    body = re.split(r'\s(?:Guidance:|Applicability Notes?:)', body[1])[0]
    found = re.findall(r'Testing Procedure ([0-9A]\S*?):\s*(.*?)(?=\s*Testing Procedure [0-9A]\S*?:|$)', body, re.S)
    # The transcription sometimes repeats the requirement's own text as a procedure numbered like it.
    if any(pid != requirement for pid, _ in found):
        found = [(pid, t) for pid, t in found if pid != requirement]
    out = []
    for pid, procedure in found:
        if procedure.startswith('**_Additional'):
            out.append((pid, 'unknown'))
            continue
        doing = re.split(r'\bto (?:verify|confirm|determine)\b', procedure, 1)[0]
        methods = [m for m, words in METHODS.items() if re.search(words, doing, re.I)]
        out.append((pid, ','.join(methods) or 'unknown'))
    return out


def order(requirement: str):
    return [(1, int(p[1:])) if p.startswith('A') else (0, int(p)) for p in requirement.split('.')]


def main() -> None:
    names = [n for n in git('ls-tree', '--name-only', f'{SOURCE_COMMIT}:{SOURCE_DIR}').split() if n.endswith('.md')]
    rows = []
    for name in names:
        requirement = name[len('control_'):-len('.md')]
        for pid, methods in procedures(requirement, git('show', f'{SOURCE_COMMIT}:{SOURCE_DIR}/{name}')):
            rows.append((requirement, pid, methods))
    rows.sort(key=lambda r: (order(r[0]), r[1]))
    header = [
        '# Every PCI DSS v4.0.1 requirement (defined approach) with its testing procedures and what the assessor does in',
        '# each: documentation, configuration, records, interview, observation, or unknown. Derived by procedures.py from',
        f'# {SOURCE_REPOSITORY} {SOURCE_COMMIT} {SOURCE_DIR}; the methods are classified from the words of',
        '# each procedure, not copied. Columns: requirement, testing procedure, methods.',
    ]
    OUTPUT.write_text('\n'.join(header + ['\t'.join(r) for r in rows]) + '\n')


if __name__ == '__main__':
    main()
