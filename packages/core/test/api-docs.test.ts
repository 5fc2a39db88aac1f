import * as fs from 'fs';
import * as path from 'path';

// The API reference is generated from the doc comments (scripts/docgen.js; `check:api-docs` keeps it current): a public
// member without one shows "No description" to Java, Python and TypeScript users alike.
test.each(['API.md', 'API.java.md', 'API.python.md'])('%s documents every public member', (file) => {
  const lines = fs.readFileSync(path.join(__dirname, '..', file), 'utf-8').split('\n');
  expect(lines.filter((l) => l.includes('*No description.*'))).toEqual([]);
});
