#!/usr/bin/env node
// Writes API.md for the package in the current directory. jsii-docgen's CLI looks for dependency assemblies only
// below the package directory; npm workspaces hoist them to the root node_modules, so point it there.
const path = require('node:path');
const fs = require('node:fs');
const { Documentation, Language } = require('jsii-docgen');

async function main() {
  const docs = await Documentation.forProject(process.cwd(), {
    assembliesDir: path.resolve(__dirname, '..', 'node_modules'),
  });
  const markdown = await docs.toMarkdown({ language: Language.TYPESCRIPT, allSubmodules: true });
  fs.writeFileSync('API.md', markdown.render());
}

main().catch((err) => {
  console.error(`docgen failed: ${err.message}`);
  process.exit(1);
});
