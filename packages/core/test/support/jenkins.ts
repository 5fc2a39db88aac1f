// The build server's test fixtures, shared by test/build-server/jenkins-*.test.ts.
import * as fs from 'fs';
import * as path from 'path';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as YAML from 'yaml';
import { applicationTask, OIDC, propsFor, synth } from './synth';
import { filesWritten } from './user-data-files';
import { AuthMode, BashUserDataBuilder, Ec2Context, JenkinsSpec, RuntimeType, SecurityProfile } from '../../src';
import { JENKINS_PLUGINS, pluginsTxt } from '../../src/build-server/versions';

/** The pinned version of a plugin, as plugins.txt installs it. */
export const pinned = (id: string) => JENKINS_PLUGINS.find((p) => p.id === id)!.version;

export const EFS: Ec2Context = {
  stackName: 'ci',
  securityProfile: 'PRODUCTION',
  runtimeType: 'EC2',
  logGroupName: '/aws/ci/EC2/PRODUCTION',
  serviceUser: 'jenkins',
  fqdn: 'ci.example.com',
  sslEnabled: true,
  hasEfs: true,
  efsId: 'fs-0123456789abcdef0',
  accessPointId: 'fsap-0123456789abcdef0',
};

export const SONAR = {
  serverUrl: 'https://sonarqube.example.com',
  tokenSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/sonar-token-AbCdEf',
  webhookSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/sonar-webhook-AbCdEf',
};

/** Jenkins signs users in itself: the one auth mode it accepts. */
export const SIGN_IN = { authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, domain: 'example.com' };

export function ec2Script(context: Ec2Context = EFS, spec = new JenkinsSpec()): string {
  const builder = new BashUserDataBuilder();
  spec.configureUserData(builder, context);
  return builder.render();
}

/** The Fargate task's application container and its init container. */
export function fargateContainers(props = {}, spec = new JenkinsSpec()) {
  const { json } = synth(RuntimeType.FARGATE, { ...SIGN_IN, ...props }, spec);
  const definitions = applicationTask(json).Properties.ContainerDefinitions;
  return { app: definitions.find((c: any) => c.Name === 'Application'), init: definitions.find((c: any) => c.Name === 'Initialization'), json };
}

/** A synth, and the framework's local-address warnings of it. */
export function synthWithWarnings(runtime: RuntimeType, props: object) {
  const { json, stack } = synth(runtime, props, new JenkinsSpec());
  const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('@fw/core:local-address'))
    .map((w: any) => String(w.entry.data).replace(/ \[ack: .*\]$/, ''));
  return { json, warnings };
}

export function env(container: any): Record<string, string> {
  return Object.fromEntries((container.Environment ?? []).map((e: any) => [e.Name, e.Value]));
}

/** The configuration as each runtime delivers it, parsed back. */
export function fargateConfiguration(spec = new JenkinsSpec(), profile = SecurityProfile.DEV): any {
  const { json } = synth(RuntimeType.FARGATE, { ...propsFor(profile), ...SIGN_IN, alarmEmail: ALARM_EMAIL }, spec);
  const init = applicationTask(json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Initialization');
  const script: string = init.Command[0];
  const variable = /printf '%s' "\$(FW_FILE_\d+)" \| base64 -d > '\/fw\/config\/jenkins.yaml'/.exec(script)![1];
  return YAML.parse(Buffer.from(env(init)[variable], 'base64').toString('utf-8'));
}

export const ALARM_EMAIL = 'security@example.com';
/** The configuration the EC2 user data writes (unpacked as the instance's shell would; the sandbox runs it below). */
export function ec2Configuration(spec = new JenkinsSpec(), profile = SecurityProfile.DEV): any {
  return YAML.parse(filesWritten(ec2Script({ ...EFS, securityProfile: profile }, spec))['/etc/jenkins/casc/jenkins.yaml']);
}

/**
 * Stands in for the plugin tool in the sandbox (`java -jar ...` on EC2, `jenkins-plugin-cli` on Fargate): writes each
 * line of `--plugin-file` as `<id>.jpi` holding its version into `--plugin-download-directory`, as the tool names its
 * downloads, and keeps whatever is there already, as the tool keeps an installed release at or above the pin
 * (plugin-installation-manager-tool 2.15.0 PluginManager.java 275-300). What the user data does around it is real.
 */
export const PLUGIN_TOOL_STUB = [
  'dir=""; file=""',
  'while [ $# -gt 0 ]; do case "$1" in --plugin-download-directory) dir="$2"; shift ;; --plugin-file) file="$2"; shift ;; esac; shift; done',
  '[ -n "$dir" ] || exit 0',
  'while IFS=: read -r id version; do [ -n "$id" ] && [ ! -e "$dir/$id.jpi" ] && printf "%s\\n" "$version" > "$dir/$id.jpi"; done < "$file"',
  'exit 0',
].join('\n');

/**
 * What an earlier release left in a persistent plugin directory: plugins no longer pinned (ldap, unpacked as core
 * unpacks it; workflow-aggregator, disabled in the UI) and matrix-auth upgraded in the UI past its pin.
 */
export const STALE_PLUGINS: Record<string, string> = {
  'ldap.jpi': '807\n',
  'ldap/META-INF/MANIFEST.MF': 'Short-Name: ldap\n',
  'workflow-aggregator.jpi': '608\n',
  'workflow-aggregator.jpi.disabled': '',
  'matrix-auth.jpi': '3.2.99\n',
};

/** Every file under a directory, relative to it, with its content. */
export function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[path.relative(dir, path.join(entry.parentPath, entry.name))] = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf-8');
  }
  return out;
}

/** Writes files under a directory, making their folders. */
export function seed(dir: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
}

/** The pinned plugin directory, as the tool stand-in fills it: `<id>.jpi` holding the pinned version. */
export function pinnedPluginFiles(): Record<string, string> {
  return Object.fromEntries(pluginsTxt().trim().split('\n').map((line) => line.split(':')).map(([id, version]) => [`${id}.jpi`, `${version}\n`]));
}
