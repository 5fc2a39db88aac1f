import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PACMAK_POM, scopes } from './pom-fixture';
import { finishMavenArtifact } from '../../src/maven/finish-artifact';

/** A scaffolded plugin after jsii-pacmak and `jar uf`: its package.json, its assembly, and dist/java with stale checksums. */
function builtPlugin(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-finish-maven-'));
  const maven = (groupId: string, artifactId: string) => ({ targets: { java: { maven: { groupId, artifactId } } } });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'gitlab-plugin',
    peerDependencies: { '@fw/core': '^0.1.0', 'aws-cdk-lib': '^2.263.0', 'constructs': '^10.8.1' },
    jsii: { outdir: 'dist' },
  }));
  fs.writeFileSync(path.join(dir, '.jsii'), JSON.stringify({
    version: '0.0.0',
    targets: maven('dev.fwframework.plugins', 'gitlab-plugin').targets,
    dependencyClosure: {
      '@fw/core': maven('dev.fwframework', 'core'),
      'aws-cdk-lib': maven('software.amazon.awscdk', 'aws-cdk-lib'),
      'constructs': maven('software.constructs', 'constructs'),
    },
  }));
  const artifact = path.join(dir, 'dist/java/dev/fwframework/plugins/gitlab-plugin/0.0.0');
  fs.mkdirSync(artifact, { recursive: true });
  const files = { 'gitlab-plugin-0.0.0.pom': PACMAK_POM, 'gitlab-plugin-0.0.0.jar': 'the JAR with its manifest', 'gitlab-plugin-0.0.0-sources.jar': 'sources' };
  for (const [name, content] of Object.entries(files)) {
    fs.writeFileSync(path.join(artifact, name), content);
    // What pacmak wrote: right for the sources, stale for the JAR and the POM, which changed after it.
    const digestOf = name.endsWith('-sources.jar') ? content : 'before';
    for (const algorithm of ['md5', 'sha1']) fs.writeFileSync(path.join(artifact, `${name}.${algorithm}`), digest(algorithm, digestOf));
  }
  return dir;
}

/** The digest as the system's own tool computes it (`md5sum`, `sha1sum`), not as the code under test does. */
function digest(algorithm: string, content: string): string {
  return spawnSync(`${algorithm}sum`, { input: content, encoding: 'utf-8' }).stdout.split(' ')[0];
}

test('the POM of dist/java gets the peer dependencies provided, and every stale checksum is rewritten', () => {
  const dir = builtPlugin();
  try {
    const artifact = 'dist/java/dev/fwframework/plugins/gitlab-plugin/0.0.0';
    expect(finishMavenArtifact(dir)).toEqual({
      pom: `${artifact}/gitlab-plugin-0.0.0.pom`,
      provided: ['dev.fwframework:core', 'software.amazon.awscdk:aws-cdk-lib', 'software.constructs:constructs'],
      checksums: ['gitlab-plugin-0.0.0.jar.md5', 'gitlab-plugin-0.0.0.jar.sha1', 'gitlab-plugin-0.0.0.pom.md5', 'gitlab-plugin-0.0.0.pom.sha1'],
    });
    const pom = fs.readFileSync(path.join(dir, artifact, 'gitlab-plugin-0.0.0.pom'), 'utf-8');
    expect(scopes(pom)).toMatchObject({ 'dev.fwframework:core': 'provided', 'software.amazon.jsii:jsii-runtime': '(none)' });
    for (const name of ['gitlab-plugin-0.0.0.pom', 'gitlab-plugin-0.0.0.jar', 'gitlab-plugin-0.0.0-sources.jar']) {
      const content = fs.readFileSync(path.join(dir, artifact, name), 'utf-8');
      for (const algorithm of ['md5', 'sha1']) {
        expect(fs.readFileSync(path.join(dir, artifact, `${name}.${algorithm}`), 'utf-8')).toBe(digest(algorithm, content));
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
