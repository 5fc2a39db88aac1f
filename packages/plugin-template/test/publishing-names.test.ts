import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FwPluginProject } from '../src';
import { frameworkNamespaceProblems, publishingNames } from '../src/publishing-names';

/**
 * A plugin publishes under its author's names (review 6, adoption F10): the framework's Maven group, Java package, Go
 * module and .NET namespace belong to the framework, and nobody else can publish there. `projen new` always sets
 * repositoryUrl (the git remote, else https://github.com/<git's github.user or e-mail name>/<directory>.git: projen's
 * $GIT_REMOTE macro), so the names derive from it.
 */
test.each([
  ['https://github.com/example/gitlab-plugin.git', 'io.github.example', 'io.github.example.gitlabplugin', 'github.com/example/gitlab-plugin-go', 'Example.FwPlugins.Gitlab'],
  ['git@github.com:Acme-Corp/gitlab-plugin.git', 'io.github.acme-corp', 'io.github.acme_corp.gitlabplugin', 'github.com/Acme-Corp/gitlab-plugin-go', 'AcmeCorp.FwPlugins.Gitlab'],
  ['https://gitlab.com/acme/gitlab-plugin', 'io.gitlab.acme', 'io.gitlab.acme.gitlabplugin', 'gitlab.com/acme/gitlab-plugin-go', 'Acme.FwPlugins.Gitlab'],
  ['ssh://git@git.acme.example:2222/platform/gitlab-plugin.git', 'example.acme.git.platform', 'example.acme.git.platform.gitlabplugin', 'git.acme.example/platform/gitlab-plugin-go', 'Platform.FwPlugins.Gitlab'],
  ['git+https://github.com/42team/gitlab-plugin.git', 'io.github.42team', 'io.github._42team.gitlabplugin', 'github.com/42team/gitlab-plugin-go', '_42team.FwPlugins.Gitlab'],
])('%s gives %s, %s, %s, %s', (url, mavenGroupId, javaPackage, goModule, dotNet) => {
  expect(publishingNames(url, 'gitlabplugin', 'Gitlab')).toEqual({ mavenGroupId, javaPackage, goModule, dotNet });
});

test('an address it cannot read is refused, naming it and what to give instead', () => {
  expect(() => publishingNames('not a url', 'gitlabplugin', 'Gitlab')).toThrow(
    'fw-plugin: cannot derive the Maven group and the Go module from repositoryUrl "not a url"; give a repository address such as ' +
    'https://github.com/<owner>/<repo>.git, or set publishToMaven (javaPackage, mavenGroupId, mavenArtifactId), publishToGo (moduleName) ' +
    'and publishToNuget (dotNetNamespace, packageId) yourself');
});

test('the framework\'s namespaces are found; negative control: an author\'s are not', () => {
  expect(frameworkNamespaceProblems({ mavenGroupId: 'dev.fwframework.plugins', javaPackage: 'dev.fwframework.plugins.x', goModule: 'github.com/fw-framework/x-go', dotNet: 'FwFramework.Plugins.X' }))
    .toEqual(['the Maven group dev.fwframework.plugins', 'the Java package dev.fwframework.plugins.x', 'the Go module github.com/fw-framework/x-go', 'the .NET namespace FwFramework.Plugins.X']);
  expect(frameworkNamespaceProblems({ mavenGroupId: 'dev.fwframeworks', javaPackage: 'io.github.fwframework.x', goModule: 'github.com/fw-frameworks/x-go', dotNet: 'FwFrameworkFan.X' })).toEqual([]);
});

function project(options: object) {
  return () => new FwPluginProject({
    name: 'gitlab-plugin',
    author: 'A',
    authorAddress: 'a@example.com',
    defaultReleaseBranch: 'main',
    repositoryUrl: 'https://github.com/example/gitlab-plugin.git',
    outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'fw-names-')),
    ...options,
  });
}

test('a scaffold whose repository is the framework\'s is refused, naming every name in its namespace', () => {
  expect(project({ repositoryUrl: 'https://github.com/fw-framework/gitlab-plugin.git' })).toThrow(
    'fw-plugin: the Go module github.com/fw-framework/gitlab-plugin-go, the .NET namespace FwFramework.FwPlugins.Gitlab are in the framework\'s ' +
    'own namespace, where a plugin cannot be published; ' +
    'use your organisation\'s (set repositoryUrl to your repository, or publishToMaven, publishToGo and publishToNuget)');
  expect(project({ publishToMaven: { javaPackage: 'dev.fwframework.plugins.gitlab', mavenGroupId: 'dev.fwframework.plugins', mavenArtifactId: 'gitlab-plugin' } }))
    .toThrow(/the Maven group dev\.fwframework\.plugins, the Java package dev\.fwframework\.plugins\.gitlab are in the framework's own namespace/);
});

test('names given in full are kept, whatever repositoryUrl says', () => {
  const given = project({
    repositoryUrl: 'internal',
    publishToMaven: { javaPackage: 'com.acme.ci.gitlab', mavenGroupId: 'com.acme.ci', mavenArtifactId: 'gitlab-plugin' },
    publishToGo: { moduleName: 'go.acme.com/ci/gitlab-plugin-go' },
    publishToNuget: { dotNetNamespace: 'Acme.Ci.Gitlab', packageId: 'Acme.Ci.Gitlab' },
  })();
  expect(given.package.manifest.jsii.targets.java.maven.groupId).toBe('com.acme.ci');
  expect(given.package.manifest.jsii.targets.go.moduleName).toBe('go.acme.com/ci/gitlab-plugin-go');
});
