import * as fs from 'node:fs';
import * as path from 'node:path';

/** The `node_modules` directories Node would search from `dir`: its own and every ancestor's. */
export function nodeModulesDirs(dir: string): string[] {
  const dirs: string[] = [];
  let current = path.resolve(dir);
  for (;;) {
    const candidate = path.join(current, 'node_modules');
    if (fs.existsSync(candidate)) dirs.push(candidate);
    const parent = path.dirname(current);
    if (parent === current) return dirs;
    current = parent;
  }
}

/** The package directories directly inside a `node_modules` directory, scoped ones included. */
export function installedPackages(nodeModules: string): string[] {
  const result: string[] = [];
  for (const name of safeReaddir(nodeModules)) {
    if (name.startsWith('.')) continue;
    const full = path.join(nodeModules, name);
    if (name.startsWith('@')) {
      for (const scoped of safeReaddir(full)) {
        if (!scoped.startsWith('.')) result.push(path.join(full, scoped));
      }
    } else {
      result.push(full);
    }
  }
  return result;
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
