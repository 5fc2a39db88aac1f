import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'projen';
import { FwPluginProject } from '../src';
import { CONTRACT_RECORD, frameworkRange } from '../src/plugin-contract';
import { finishWheels, WHEEL_RESOURCES } from '../src/python/finish-wheel';

// The plugin contract a scaffolded plugin records, in each language's form, as @fw/core's discovery reads it
// (packages/core/src/contract/plugin-contract.ts), and the task that upgrades the framework.

/** @fw/core's declaration (packages/core/src/contract/plugin-contract-version.ts), read as text: another package's source. */
const CORE_DECLARATION = fs.readFileSync(path.join(__dirname, '..', '..', 'core', 'src', 'contract', 'plugin-contract-version.ts'), 'utf-8');
const PLUGIN_CONTRACT_VERSION = /PLUGIN_CONTRACT_VERSION = '(\d+\.\d+)'/.exec(CORE_DECLARATION)![1];
const PLUGIN_CONTRACT_RECORD = Object.fromEntries([...CORE_DECLARATION.matchAll(/^ {2}(\w+): '([^']+)',$/gm)].map((m) => [m[1], m[2]]));

function synth(outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-contract-'))): Record<string, any> {
  return Testing.synth(new FwPluginProject({
    name: 'gitlab-plugin',
    author: 'Test Author',
    authorAddress: 'author@example.com',
    repositoryUrl: 'https://github.com/example/gitlab-plugin.git',
    defaultReleaseBranch: 'main',
    outdir,
  }));
}

describe('the record of the contract the plugin is built against', () => {
  const files = synth();
  const record = { pluginContract: PLUGIN_CONTRACT_VERSION };

  test('the names are @fw/core\'s', () => {
    expect(Object.keys(PLUGIN_CONTRACT_RECORD)).toEqual(['npmField', 'key', 'javaResource', 'pythonMetadataFile']);
    expect(CONTRACT_RECORD).toMatchObject(PLUGIN_CONTRACT_RECORD);
  });

  test('npm: package.json; Java: the resource beside the service file, added to the JAR; Python: the wheel\'s metadata', () => {
    expect(files['package.json'].fw).toEqual(record);
    expect(files['.jar-resources/META-INF/fw/plugin.json']).toEqual(record);
    expect(files['.wheel-resources/fw_plugin.json']).toEqual(record);
    expect(files['.wheel-resources/entry_points.txt']).toMatch(/^\[fw\.plugins\]\ngitlabspec = fw_gitlab_plugin:GitlabSpec\n?$/);
    const tasks = files['.projen/tasks.json'].tasks;
    expect(JSON.stringify(tasks['package:java'].steps)).toContain('-C .jar-resources META-INF/fw/plugin.json');
    expect(tasks['package:python'].steps.map((s: any) => s.exec).filter(Boolean)).toEqual(['fw-finish-python-artifact']);
  });

  test('written from the installed @fw/core\'s record, so an upgrade records the new contract', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-contract-'));
    const core = path.join(outdir, 'node_modules', '@fw', 'core');
    fs.mkdirSync(core, { recursive: true });
    fs.writeFileSync(path.join(core, 'package.json'), JSON.stringify({ name: '@fw/core', version: '0.3.0', fw: { pluginContract: '1.4' } }));
    const upgraded = synth(outdir);
    expect([upgraded['package.json'].fw, upgraded['.jar-resources/META-INF/fw/plugin.json']]).toEqual([{ pluginContract: '1.4' }, { pluginContract: '1.4' }]);
  });
});

describe('upgrade-fw', () => {
  const tasks = synth()['.projen/tasks.json'].tasks;

  test('moves the framework and the template within their major, re-synthesises, then tests', () => {
    expect(tasks['upgrade-fw'].steps).toEqual([{ spawn: 'upgrade-fw:versions' }, { spawn: 'test' }]);
    const versions = tasks['upgrade-fw:versions'].steps;
    expect(versions[0].execArgs).toEqual(expect.arrayContaining(['--target=minor', '--filter=@fw/core,@fw/plugin-template']));
    expect(versions.map((s: any) => s.exec).filter(Boolean)).toContain('npx projen');
  });

  test('the range a plugin accepts ends before the next major', () => {
    expect([frameworkRange('0.1.0'), frameworkRange('1.2.3')]).toEqual(['>=0.1.0 <1.0.0', '>=1.2.3 <2.0.0']);
  });
});

describe('fw-finish-python-artifact', () => {
  test('the wheel gets the entry points and the record in its metadata, with a RECORD pip and importlib accept', () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-wheel-'));
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ jsii: { outdir: 'dist' } }));
    fs.mkdirSync(path.join(project, 'dist', 'python'), { recursive: true });
    fs.mkdirSync(path.join(project, WHEEL_RESOURCES));
    fs.writeFileSync(path.join(project, WHEEL_RESOURCES, 'fw_plugin.json'), '{"pluginContract": "1.0"}\n');
    fs.writeFileSync(path.join(project, WHEEL_RESOURCES, 'entry_points.txt'), '[fw.plugins]\ngitlabspec = fw_gitlab:GitlabSpec\n');
    // A wheel as a build backend writes one: a module and its dist-info with METADATA, WHEEL and RECORD.
    const wheel = path.join(project, 'dist', 'python', 'fw_gitlab-1.0.0-py3-none-any.whl');
    const make = spawnSync('python3', ['-c', [
      'import sys, zipfile',
      'z = zipfile.ZipFile(sys.argv[1], "w")',
      'z.writestr("fw_gitlab/__init__.py", "class GitlabSpec: pass\\n")',
      'z.writestr("fw_gitlab-1.0.0.dist-info/METADATA", "Metadata-Version: 2.1\\nName: fw-gitlab\\nVersion: 1.0.0\\n")',
      'z.writestr("fw_gitlab-1.0.0.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")',
      'z.writestr("fw_gitlab-1.0.0.dist-info/RECORD", "")',
      'z.close()',
    ].join('\n'), wheel], { encoding: 'utf-8' });
    expect(make.stderr).toBe('');
    expect(finishWheels(project)).toEqual([`${wheel}: fw_gitlab-1.0.0.dist-info/entry_points.txt, fw_gitlab-1.0.0.dist-info/fw_plugin.json`]);
    // pip installs it (checking nothing is missing from RECORD), and Python reads both as its deployment app does.
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-site-'));
    const install = spawnSync('python3', ['-m', 'pip', 'install', '--quiet', '--no-index', '--no-deps', '--target', target, wheel], { encoding: 'utf-8' });
    expect(install.status).toBe(0);
    const read = spawnSync('python3', ['-c', [
      'import sys, importlib.metadata as m',
      'd = next(m.distributions(path=[sys.argv[1]]))',
      'print(d.read_text("fw_plugin.json").strip())',
      'print([(e.group, e.name, e.value) for e in d.entry_points])',
    ].join('\n'), target], { encoding: 'utf-8' });
    expect(read.stdout).toBe('{"pluginContract": "1.0"}\n[(\'fw.plugins\', \'gitlabspec\', \'fw_gitlab:GitlabSpec\')]\n');
    // RECORD names every file with its digest and size, itself without.
    const record = spawnSync('python3', ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read("fw_gitlab-1.0.0.dist-info/RECORD").decode())', wheel], { encoding: 'utf-8' });
    expect(record.stdout).toMatch(/^fw_gitlab-1\.0\.0\.dist-info\/fw_plugin\.json,sha256=[A-Za-z0-9_-]{43},26$/m);
    expect(record.stdout).toMatch(/^fw_gitlab-1\.0\.0\.dist-info\/RECORD,,$/m);
  });

  test('no wheel: a message that says which step comes first', () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-wheel-'));
    fs.writeFileSync(path.join(project, 'package.json'), '{}');
    expect(() => finishWheels(project)).toThrow(/no wheel in .*dist\/python: run jsii-pacmak's python target first/);
  });
});
