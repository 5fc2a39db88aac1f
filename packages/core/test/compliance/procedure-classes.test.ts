import { PCI_DSS_MAPPING } from '../../src/compliance/pci-dss-401/mapping';

// The keyword classification of the testing procedures (tools/aws/pci-dss-4/procedures.py) pinned by hand where it
// matters: every procedure a grade names, read against its text in PCI DSS v4.0.1, and the corrections of the round-6
// review (../shared/reviews/pci-review-6.md section 2, R10). A changed keyword that moves one of them fails here.

const methodsOf = (id: string) => {
  const requirement = Object.keys(PCI_DSS_MAPPING.procedures).find((q) => PCI_DSS_MAPPING.procedures[q].some((p) => p.id === id));
  return requirement ? PCI_DSS_MAPPING.procedures[requirement].find((p) => p.id === id)!.methods.join(',') : 'not a procedure';
};

/** Each procedure grades.tsv names, with what it examines. */
const GRADED: Record<string, string> = {
  '1.3.1.b': 'configuration',
  '1.4.1.b': 'configuration',
  '1.4.2': 'documentation,configuration',
  '1.4.4.b': 'configuration',
  '2.2.6.c': 'configuration',
  '2.2.7.b': 'configuration,observation',
  '2.2.7.c': 'configuration',
  '3.4.1.b': 'configuration',
  '4.2.1.b': 'configuration',
  '6.4.2': 'configuration,records,interview',
  '6.5.1.b': 'documentation,configuration',
  '8.3.2.a': 'documentation,configuration',
  '8.6.3.c': 'configuration,interview',
  '10.2.1': 'configuration,interview',
  '10.2.1.2': 'configuration,records',
  '10.2.1.4': 'configuration,records',
  '10.2.1.5': 'configuration,records',
  '10.2.1.7': 'configuration,records',
  '10.2.2': 'configuration,records,interview',
  '10.3.2': 'configuration,interview',
  '10.5.1.b': 'configuration,records,interview',
};

test('every procedure a grade names is classified as its text reads, and grades.tsv names no other', () => {
  const named = [...new Set(Object.values(PCI_DSS_MAPPING.grades).flatMap((byRequirement) => Object.values(byRequirement)
    .flatMap((g) => g.procedures)))];
  expect(named.sort()).toEqual(Object.keys(GRADED).sort());
  expect(Object.fromEntries(named.map((id) => [id, methodsOf(id)]))).toEqual(GRADED);
});

test('the review\'s corrections: "data" alone is no record; log files, lists, factor files are; examined accounts and controls, configuration', () => {
  expect({
    '1.2.4.a': methodsOf('1.2.4.a'), // Examine data-flow diagram(s) and interview personnel
    '1.4.4.a': methodsOf('1.4.4.a'), // ... data-flow diagram ...
    '3.7.1.a': methodsOf('3.7.1.a'), // ... stored account data ...
    '3.5.1.3.b': methodsOf('3.5.1.3.b'), // Examine files containing authentication factors and interview personnel
    '3.6.1.3': methodsOf('3.6.1.3'), // Examine user access lists
    '8.6.1': methodsOf('8.6.1'), // Examine application and system accounts that can be used interactively
    '11.4.5.a': methodsOf('11.4.5.a'), // Examine segmentation controls
    '10.3.3': methodsOf('10.3.3'), // Examine backup configurations or log files
    '3.3.1.1': methodsOf('3.3.1.1'), // Examine data sources
  }).toEqual({
    '1.2.4.a': 'documentation,interview',
    '1.4.4.a': 'documentation',
    '3.7.1.a': 'documentation',
    '3.5.1.3.b': 'records,interview',
    '3.6.1.3': 'records',
    '8.6.1': 'configuration,interview',
    '11.4.5.a': 'configuration',
    '10.3.3': 'configuration,records',
    '3.3.1.1': 'records',
  });
  // Physical access controls are observed, not configuration; documented evidence of controls is not configuration either.
  expect([methodsOf('9.2.1'), methodsOf('3.4.2.a')]).toEqual(['interview,observation', 'documentation,records']);
});
