import * as fs from 'fs';
import * as path from 'path';
import { PCI_DSS_MAPPING } from '../src/compliance/pci-dss-401/mapping';
import { PCI_DSS_401_RULES } from '../src/compliance/pci-dss-401/pci-dss-401-rules';
import { CONTAINER_IMAGE_FIELDS } from '../src/container-image/container-image-config';

/** Lists the documentation keeps by hand, tied to the code they describe (issue 62): a field or a rule added is named. */
const DOCS = path.join(__dirname, '..', '..', '..', 'docs');
const read = (file: string) => fs.readFileSync(path.join(DOCS, file), 'utf-8');

test('docs/deploying.md\'s containerImage table lists exactly the fields the deployment app accepts, in their order', () => {
  const doc = read('deploying.md');
  const table = doc.slice(doc.indexOf('| field | required | meaning |'));
  const rows = [...table.split('\n\n')[0].matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
  expect(rows).toEqual(Object.keys(CONTAINER_IMAGE_FIELDS));
  // Required as the code says.
  for (const [field, { required }] of Object.entries(CONTAINER_IMAGE_FIELDS)) {
    expect([field, new RegExp(`^\\| \`${field}\` \\| ${required ? 'yes' : 'no'}\\b`, 'm').test(table)]).toEqual([field, true]);
  }
});

test('docs/verification.md names each of our own PCI DSS rules, and no rule the pack does not have', () => {
  const row = read('verification.md').split('\n').find((line) => line.startsWith('| our rules for what the template has'))!;
  const named = [...row.split(' | ')[0].matchAll(/`([A-Z][A-Za-z0-9]+)`/g)].map((m) => m[1]);
  const ours = Object.keys(PCI_DSS_MAPPING.frameworkRules);
  expect(ours.filter((rule) => !named.includes(rule))).toEqual([]);
  expect(named.filter((rule) => !PCI_DSS_401_RULES.some((r) => r.name === rule))).toEqual([]);
  // Negative control: the row as it was before this test (without the two rules added since) is named.
  const before = named.filter((rule) => rule !== 'ListenerTls12' && rule !== 'ComputeNoPublicIngress');
  expect(ours.filter((rule) => !before.includes(rule))).toEqual(['ListenerTls12', 'ComputeNoPublicIngress']);
});
