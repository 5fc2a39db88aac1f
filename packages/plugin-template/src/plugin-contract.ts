import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

/** This template's package.json: its version is the framework's, and it records the plugin contract of its release. */
export const TEMPLATE_PACKAGE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf-8'));

/**
 * Where a plugin package records the plugin contract it was built against, in each language's form: the names
 * `@fw/core` reads (its `PluginContract`; a test compares the two). The entry-point group is the one Python's
 * deployment app (`fw_deploy`) reads.
 */
export const CONTRACT_RECORD = {
  npmField: 'fw',
  key: 'pluginContract',
  javaResource: 'META-INF/fw/plugin.json',
  pythonMetadataFile: 'fw_plugin.json',
  pythonEntryPointGroup: 'fw.plugins',
} as const;


/**
 * The framework's version range a plugin accepts: from this release to the next major. A framework release keeps its
 * plugin contract's major within a package major, and discovery checks the contract itself, so every later minor
 * (0.x ones included) is allowed in, and the next major is not.
 */
export function frameworkRange(version: string): string {
  const major = Number(version.split('.')[0]);
  return `>=${version} <${major + 1}.0.0`;
}

/**
 * The plugin contract the plugin is built against: the installed `@fw/core`'s (its package.json), or this template's
 * before anything is installed (the first `projen new`). Re-read at every synth, so an upgrade records the new one.
 */
export function builtAgainst(outdir: string): string {
  try {
    const core = createRequire(path.join(outdir, 'package.json')).resolve('@fw/core/package.json');
    const recorded = JSON.parse(fs.readFileSync(core, 'utf-8'))[CONTRACT_RECORD.npmField]?.[CONTRACT_RECORD.key];
    if (typeof recorded === 'string') return recorded;
  } catch {
    // Not installed yet: the template's own.
  }
  return TEMPLATE_PACKAGE[CONTRACT_RECORD.npmField][CONTRACT_RECORD.key];
}

