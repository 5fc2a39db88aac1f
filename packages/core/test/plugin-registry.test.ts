import * as fs from 'node:fs';
import * as path from 'node:path';
import { PluginRegistry } from '../src';
import { fakeInstall, manifestOf, pluginClassSource } from './support/fake-install';
import { CONTRACT_JAVA_FQN, MANIFEST_PATH, parseManifest } from '../src/registry/manifest';

const WIKI = {
  name: '@acme/wiki-plugin',
  source: pluginClassSource('WikiSpec', 'wiki'),
  manifest: '# wiki\n@acme/wiki-plugin.WikiSpec\n',
};

function discoveryError(project: string): string {
  try {
    PluginRegistry.discover({ searchFrom: project });
  } catch (e) {
    expect((e as Error).name).toBe('UserError');
    return (e as Error).message;
  }
  throw new Error('expected discovery to fail');
}

describe('manifest', () => {
  test('blank lines and # comments (whole-line and trailing) are skipped; line numbers are kept', () => {
    expect(parseManifest('# header\n\n  a.B  \nc.D # trailing\r\n#e.F\n')).toEqual([
      { className: 'a.B', line: 3 }, { className: 'c.D', line: 4 },
    ]);
  });
});

describe('discovery', () => {
  test('finds plugins in scoped and unscoped packages, nested exports included', () => {
    const project = fakeInstall([
      WIKI,
      {
        name: 'gitea-plugin',
        source: `const plugins = {};\n${pluginClassSource('GiteaSpec', 'gitea').replace('exports.GiteaSpec', 'plugins.GiteaSpec')}exports.plugins = plugins;\n`,
        manifest: 'gitea-plugin.plugins.GiteaSpec\n',
      },
      { name: 'left-pad', source: 'module.exports = () => 0;' },
    ]);
    const registry = PluginRegistry.discover({ searchFrom: project });
    expect(registry.applicationIds()).toEqual(['gitea', 'jenkins', 'wiki']);
    expect(registry.registrations()).toEqual(expect.arrayContaining([{
      applicationId: 'wiki',
      className: '@acme/wiki-plugin.WikiSpec',
      packageName: '@acme/wiki-plugin',
      source: `${manifestOf(project, '@acme/wiki-plugin')}:2`,
    }]));
    expect(registry.get('wiki').applicationPort()).toBe(8080);
  });

  test('plugins installed in an ancestor directory are found, as Node would resolve them', () => {
    const project = fakeInstall([WIKI]);
    const sub = `${project}/apps/deploy`;
    fs.mkdirSync(sub, { recursive: true });
    expect(PluginRegistry.discover({ searchFrom: sub }).applicationIds()).toEqual(['jenkins', 'wiki']);
  });

  test('@fw/core\'s built-in plugin comes in through its own manifest, like any other', () => {
    const registrations = PluginRegistry.discover({ searchFrom: fakeInstall([WIKI]) }).registrations();
    expect(registrations).toContainEqual({
      applicationId: 'jenkins',
      className: '@fw/core.JenkinsSpec',
      packageName: '@fw/core',
      source: expect.stringMatching(/packages\/core\/META-INF\/services\/dev\.fwframework\.core\.IApplicationSpec:2$/),
    });
  });

  test('discovery runs once per process: a second call returns the same registry without reading again', () => {
    const project = fakeInstall([WIKI]);
    const first = PluginRegistry.discover({ searchFrom: project });
    fs.writeFileSync(manifestOf(project, '@acme/wiki-plugin'), 'broken line\n');
    expect(PluginRegistry.discover({ searchFrom: project })).toBe(first);
  });
});

describe('errors name the manifest file and line', () => {
  test('a line that is not <package>.<Class>', () => {
    const project = fakeInstall([{ ...WIKI, manifest: '# x\n\nWikiSpec\n' }]);
    expect(discoveryError(project)).toContain(`${manifestOf(project, '@acme/wiki-plugin')}:3: 'WikiSpec' names no class: ` +
      'expected <npm package>.<ExportedClass>, for example @acme/wiki-plugin.MySpec.');
  });

  test('a line whose package exports no such class', () => {
    const project = fakeInstall([{ ...WIKI, manifest: '@acme/wiki-plugin.WikiSpek\n' }]);
    expect(discoveryError(project)).toContain(`${manifestOf(project, '@acme/wiki-plugin')}:1: '@acme/wiki-plugin.WikiSpek' ` +
      "names no class: package '@acme/wiki-plugin' exports no class 'WikiSpek'.");
  });

  test('a line that names an export that is not a class', () => {
    const project = fakeInstall([{ ...WIKI, source: `${WIKI.source}exports.VERSION = "1";\n`, manifest: '@acme/wiki-plugin.VERSION\n' }]);
    expect(discoveryError(project)).toMatch(/:1: '@acme\/wiki-plugin.VERSION' names no class/);
  });

  test('a line naming a package that is not installed', () => {
    const project = fakeInstall([{ ...WIKI, manifest: '@acme/missing.Spec\n' }]);
    expect(discoveryError(project)).toMatch(/:1: '@acme\/missing.Spec' names no class: package '@acme\/missing' cannot be loaded/);
  });

  test('a class that does not implement the contract', () => {
    const source = pluginClassSource('WikiSpec', 'wiki', { ec2LogPaths: 'DELETE', configureUserData: 'DELETE' });
    const project = fakeInstall([{ ...WIKI, source }]);
    expect(discoveryError(project)).toContain(`${manifestOf(project, '@acme/wiki-plugin')}:2: @acme/wiki-plugin.WikiSpec ` +
      'does not implement IApplicationSpec: it lacks ec2LogPaths(), configureUserData(). Extend ApplicationSpec from @fw/core.');
  });

  test('a class that cannot be constructed without arguments', () => {
    const source = pluginClassSource('WikiSpec', 'wiki').replace('class WikiSpec {', 'class WikiSpec {\n  constructor(x) { if (!x) throw new Error("needs x"); }');
    const project = fakeInstall([{ ...WIKI, source }]);
    expect(discoveryError(project)).toMatch(/:2: @acme\/wiki-plugin.WikiSpec cannot be constructed without arguments: needs x/);
  });

  test('two plugins with the same applicationId, naming both packages', () => {
    const project = fakeInstall([WIKI, { name: 'other-wiki', source: pluginClassSource('OtherWiki', 'wiki'), manifest: 'other-wiki.OtherWiki\n' }]);
    const message = discoveryError(project);
    expect(message).toContain("applicationId 'wiki' is declared twice");
    expect(message).toContain(`package @acme/wiki-plugin (${manifestOf(project, '@acme/wiki-plugin')}:2)`);
    expect(message).toContain(`package other-wiki (${manifestOf(project, 'other-wiki')}:1)`);
  });

  test('every problem of every manifest is reported at once', () => {
    const project = fakeInstall([{ ...WIKI, manifest: 'Nope\n@acme/wiki-plugin.Gone\n' }]);
    const message = discoveryError(project);
    expect(message).toMatch(/:1: 'Nope' names no class/);
    expect(message).toMatch(/:2: '@acme\/wiki-plugin.Gone' names no class/);
  });

  test('an applicationId that no plugin has lists those available', () => {
    const project = fakeInstall([WIKI]);
    expect(() => PluginRegistry.discover({ searchFrom: project }).get('jira'))
      .toThrow("No installed plugin has applicationId 'jira'. Available: jenkins (@fw/core), wiki (@acme/wiki-plugin).");
  });

  test('a plugin with invalid values is rejected by name and member when it is chosen', () => {
    const source = pluginClassSource('WikiSpec', 'wiki', { applicationPort: 'return 70000;', containerUser: 'return "jenkins";' });
    const project = fakeInstall([{ ...WIKI, source }]);
    expect(() => PluginRegistry.discover({ searchFrom: project }).get('wiki'))
      .toThrow(/Plugin @acme\/wiki-plugin.WikiSpec \(.*:2\) declares invalid values:\n.*applicationPort\(\) returned 70000; allowed: an integer port from 1 to 65535\.\n.*containerUser\(\) returned "jenkins"/);
  });
});

describe('the manifest name', () => {
  test('is the Java name jsii gives the contract, so the npm package and the JAR use one file name', () => {
    const javaPackage = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf-8')).jsii.targets.java.package;
    expect(CONTRACT_JAVA_FQN).toBe(`${javaPackage}.IApplicationSpec`);
    expect(MANIFEST_PATH).toBe(`META-INF/services/${javaPackage}.IApplicationSpec`);
  });
});

test('the project\'s own package counts: a plugin repository finds its own plugin once compiled', () => {
  const project = fakeInstall([]);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'notes-plugin', version: '1.0.0', main: 'index.js' }));
  fs.writeFileSync(path.join(project, 'index.js'), pluginClassSource('NotesSpec', 'notes'));
  fs.mkdirSync(path.join(project, path.dirname(MANIFEST_PATH)), { recursive: true });
  fs.writeFileSync(path.join(project, MANIFEST_PATH), 'notes-plugin.NotesSpec\n');
  const registry = PluginRegistry.discover({ searchFrom: project });
  expect(registry.registrations().find((r) => r.applicationId === 'notes')).toMatchObject({ className: 'notes-plugin.NotesSpec', packageName: 'notes-plugin' });
});
