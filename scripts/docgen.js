#!/usr/bin/env node
// Writes the API reference of the package in the current directory, one file per language: API.md (TypeScript),
// API.java.md and API.python.md. jsii-docgen's CLI looks for dependency assemblies only below the package directory;
// npm workspaces hoist them to the root node_modules, so point it there.
const path = require('node:path');
const fs = require('node:fs');
const { Documentation, Language } = require('jsii-docgen');

async function main() {
  const docs = await Documentation.forProject(process.cwd(), {
    assembliesDir: path.resolve(__dirname, '..', 'node_modules'),
  });
  for (const [language, file] of [[Language.TYPESCRIPT, 'API.md'], [Language.JAVA, 'API.java.md'], [Language.PYTHON, 'API.python.md']]) {
    const markdown = await docs.toMarkdown({ language, allSubmodules: true });
    fs.writeFileSync(file, markdown.render());
  }
}

main().catch((err) => {
  console.error(`docgen failed: ${err.message}`);
  process.exit(1);
});
