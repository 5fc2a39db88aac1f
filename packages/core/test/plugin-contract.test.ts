import * as fs from 'node:fs';
import * as path from 'node:path';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AuthMode, PluginContract, PluginRegistry, RuntimeType } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { fakeInstall, pluginClassSource } from './support/fake-install';
import { OIDC, synth } from './support/synth';
import { AUTH_MODES } from '../src/contract/auth-mode';
import { authModesSince, knownAt, RUNTIME_TYPES_SINCE } from '../src/contract/plugin-contract';
import { PLUGIN_CONTRACT_RECORD, PLUGIN_CONTRACT_VERSION } from '../src/contract/plugin-contract-version';

// The plugin contract's version and the check discovery runs (docs/writing-a-plugin.md, "Upgrading").

const CURRENT = PluginContract.VERSION;
const [MAJOR, MINOR] = CURRENT.split('.').map(Number);
const admit = (builtAgainst?: string, framework?: string) => PluginContract.admit(new WikiSpec(), 'WikiSpec (package @acme/wiki-plugin)', builtAgainst, framework);

describe('PluginContract.admit', () => {
  test('the same version loads without a word; an older minor of the same major loads', () => {
    expect(admit(CURRENT)).toBeUndefined();
    expect(admit(`${MAJOR}.${MINOR}`, `${MAJOR}.${MINOR + 1}`)).toBeUndefined();
  });

  test('a newer minor is refused, naming the plugin, both versions and the release to upgrade to', () => {
    expect(() => admit(`${MAJOR}.${MINOR + 1}`)).toThrow(`WikiSpec (package @acme/wiki-plugin) was built against plugin contract ${MAJOR}.${MINOR + 1}; ` +
      `this framework's is ${CURRENT}. It may use what this framework does not have: upgrade @fw/core to a release with plugin ` +
      `contract ${MAJOR}.${MINOR + 1} or later`);
  });

  test('another major is refused either way, naming the fix', () => {
    expect(() => admit(CURRENT, `${MAJOR + 1}.0`)).toThrow(`was built against plugin contract ${CURRENT}; this framework's is ${MAJOR + 1}.0. ` +
      'A major apart, what it implements may mean something else here: rebuild the plugin with the template\'s upgrade-fw task (npx projen upgrade-fw)');
    expect(() => admit(`${MAJOR + 1}.0`)).toThrow(/upgrade @fw\/core to a release with plugin contract \d+\.0 or later/);
  });

  test('no record loads, with a warning that says where the record goes; a malformed one is refused', () => {
    expect(admit(undefined)).toMatch(/records no plugin contract version \(fw\.pluginContract in package\.json, META-INF\/fw\/plugin\.json in a JAR, fw_plugin\.json in a Python distribution\)/);
    expect(() => admit('1')).toThrow('WikiSpec (package @acme/wiki-plugin): its recorded plugin contract version is "1"; expected MAJOR.MINOR');
  });

  test('the version is declared once: the class, and @fw/core\'s package.json where the template reads it', () => {
    const core = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf-8'));
    expect(core[PLUGIN_CONTRACT_RECORD.npmField][PLUGIN_CONTRACT_RECORD.key]).toBe(PLUGIN_CONTRACT_VERSION);
    expect(CURRENT).toBe(PLUGIN_CONTRACT_VERSION);
    expect(PluginContract.NPM_FIELD).toBe('fw.pluginContract');
  });
});

describe('discovery of npm packages', () => {
  const plugin = (name: string, record?: string) => ({
    name,
    source: pluginClassSource('WikiSpec', name.replace(/-plugin$/, '')),
    manifest: `${name}.WikiSpec\n`,
    packageJson: record ? { fw: { pluginContract: record } } : {},
  });

  test('a package built against a newer minor is refused, naming its manifest line, the package and both versions', () => {
    const project = fakeInstall([plugin('wiki-plugin', `${MAJOR}.${MINOR + 1}`)]);
    expect(() => PluginRegistry.discover({ searchFrom: project })).toThrow(new RegExp(
      'wiki-plugin/META-INF/services/dev\\.fwframework\\.core\\.IApplicationSpec:1: wiki-plugin\\.WikiSpec \\(package wiki-plugin\\) was built ' +
      `against plugin contract ${MAJOR}\\.${MINOR + 1}; this framework's is ${MAJOR}\\.${MINOR}\\.`));
  });

  test('checked against a framework one minor newer it loads; one major newer it is refused, the built-in plugins not', () => {
    const project = fakeInstall([plugin('pad-plugin', CURRENT)]);
    expect(PluginRegistry.discover({ searchFrom: project, frameworkContract: `${MAJOR}.${MINOR + 1}` }).applicationIds()).toEqual(['jenkins', 'pad']);
    expect(() => PluginRegistry.discover({ searchFrom: project, frameworkContract: `${MAJOR + 1}.0` }))
      .toThrow(new RegExp(`^Plugin discovery failed:\\n {2}- [^\\n]*pad-plugin\\.WikiSpec \\(package pad-plugin\\) was built against plugin contract ${CURRENT}; [^\\n]*$`));
  });

  test('a package with no record loads, and its deployment warns (@fw/core:plugin-contract-not-recorded)', () => {
    const project = fakeInstall([plugin('notes-plugin'), plugin('docs-plugin', CURRENT)]);
    const registry = PluginRegistry.discover({ searchFrom: project });
    const warned = (id: string) => Annotations.fromStack(synth(RuntimeType.FARGATE, {}, registry.get(id)).stack)
      .findWarning('*', Match.stringLikeRegexp('\\[ack: @fw/core:plugin-contract-not-recorded\\]'));
    expect(warned('notes')).toHaveLength(1);
    expect(warned('docs')).toHaveLength(0);
  });
});

describe('lists that can grow: auth modes, runtimes', () => {
  test('every mode and every runtime this framework has is dated', () => {
    expect(Object.keys(authModesSince())).toEqual(AuthMode.ALL);
    expect(Object.keys(RUNTIME_TYPES_SINCE).sort()).toEqual(Object.values(RuntimeType).sort());
  });

  test('a plugin written before a mode existed does not accept it, whatever its supportedAuthModes() says', () => {
    const next = `${MAJOR}.${MINOR + 1}`;
    const since = { ...authModesSince(), 'sso-proxy': next };
    const older = new WikiSpec();
    PluginContract.admit(older, 'WikiSpec (older)', CURRENT, next);
    const newer = new WikiSpec();
    PluginContract.admit(newer, 'WikiSpec (newer)', next, next);
    const claims = [...AuthMode.ALL, 'sso-proxy'];
    expect(knownAt(older, claims, since)).toEqual(AuthMode.ALL);
    expect(knownAt(newer, claims, since)).toEqual(claims);
  });

  test('the factory applies it: a mode added after the plugin\'s contract is refused for it', () => {
    // A framework one minor newer with one more mode, as a release would add it (restored afterwards).
    const next = `${MAJOR}.${MINOR + 1}`;
    AuthMode.ALL.push('sso-proxy');
    (AUTH_MODES as Record<string, unknown>)['sso-proxy'] = { signIn: 'nobody', since: next };
    try {
      const older = new WikiSpec();
      PluginContract.admit(older, 'WikiSpec (older)', CURRENT, next);
      expect(() => synth(RuntimeType.FARGATE, { authMode: 'sso-proxy', oidc: OIDC }, older))
        .toThrow(`cannot be deployed with authMode "sso-proxy"; allowed: ${AuthMode.ALL.filter((m) => m !== 'sso-proxy' && AUTH_MODES[m].signIn !== 'application')
          .map((m) => `"${m}"`).join(', ')}.`);
      // A plugin built against the contract that added it passes this check.
      const newer = new WikiSpec();
      PluginContract.admit(newer, 'WikiSpec (newer)', next, next);
      expect(() => synth(RuntimeType.FARGATE, { authMode: 'sso-proxy', oidc: OIDC }, newer)).not.toThrow(/cannot be deployed with authMode/);
    } finally {
      AuthMode.ALL.pop();
      delete (AUTH_MODES as Record<string, unknown>)['sso-proxy'];
    }
  });

  test('the factory applies it to runtimes: one added after the plugin\'s contract is refused for it, naming the fix', () => {
    // As if EC2 had come with the next minor (restored afterwards).
    const next = `${MAJOR}.${MINOR + 1}`;
    RUNTIME_TYPES_SINCE[RuntimeType.EC2] = next;
    try {
      const older = new WikiSpec();
      PluginContract.admit(older, 'WikiSpec (older)', CURRENT, next);
      expect(() => synth(RuntimeType.EC2, {}, older)).toThrow(/was built against a plugin contract that has no runtimeType EC2: rebuild it .*npx projen upgrade-fw/);
      expect(() => synth(RuntimeType.FARGATE, {}, older)).not.toThrow();
    } finally {
      RUNTIME_TYPES_SINCE[RuntimeType.EC2] = '1.0';
    }
  });
});
