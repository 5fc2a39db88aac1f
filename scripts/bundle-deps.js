#!/usr/bin/env node
// npm workspaces hoist dependencies to the root node_modules, where `npm pack` does not look for a package's
// bundledDependencies. Copy each one (they must have no dependencies of their own) into the package's node_modules
// before packing, so the tarball carries them.
const fs = require('node:fs');
const path = require('node:path');

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf-8'));
for (const name of pkg.bundledDependencies ?? []) {
  // The directory Node would load it from, the package's own node_modules first (not require.resolve of its
  // package.json, which an `exports` map can hide).
  const source = nodeModulesDirs(process.cwd()).map((dir) => path.join(dir, name)).find((dir) => fs.existsSync(path.join(dir, 'package.json')));
  if (!source) {
    console.error(`bundle-deps: ${name} is not installed (run npm ci at the repository's root).`);
    process.exit(1);
  }
  const own = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf-8'));
  if (Object.keys(own.dependencies ?? {}).length > 0) {
    console.error(`bundle-deps: ${name} has dependencies of its own; bundle them too or pick another library.`);
    process.exit(1);
  }
  const target = path.join('node_modules', name);
  if (path.resolve(source) === path.resolve(target)) continue;
  // Already bundled at this version: leave it, so a test reading the package's node_modules meanwhile sees no change.
  const bundled = path.join(target, 'package.json');
  if (fs.existsSync(bundled) && JSON.parse(fs.readFileSync(bundled, 'utf-8')).version === own.version) continue;
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(source, target, { recursive: true });
}

/** `dir/node_modules` and every parent's, nearest first: where Node looks for a package from `dir`. */
function nodeModulesDirs(dir) {
  const parent = path.dirname(dir);
  return [path.join(dir, 'node_modules'), ...parent === dir ? [] : nodeModulesDirs(parent)];
}
