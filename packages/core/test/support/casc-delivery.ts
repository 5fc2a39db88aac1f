import * as YAML from 'yaml';
import { applicationTask, resources, userData } from './synth';
import { filesWritten } from './user-data-files';

/** What the build server's controller receives on a runtime, read from a synthesised template. */
export interface Delivered {
  /** The parsed jenkins.yaml. */
  readonly casc: Record<string, any>;
  /** Delivered files by absolute path on the controller. */
  readonly files: Record<string, string>;
  /** Names of the environment variables the Jenkins process has (configuration-as-code's EnvSecretSource). */
  readonly environment: Set<string>;
}

/** Fargate: the init container's files (base64 in its environment), the application container's environment and secrets. */
export function deliveredOnFargate(json: any): Delivered {
  const containers = applicationTask(json).Properties.ContainerDefinitions;
  const init = containers.find((c: any) => c.Name === 'Initialization');
  const app = containers.find((c: any) => c.Name === 'Application');
  const initEnv = Object.fromEntries(init.Environment.map((e: any) => [e.Name, e.Value]));
  const files = Object.fromEntries([...init.Command[0].matchAll(/printf '%s' "\$(FW_FILE_\d+)" \| base64 -d > '([^']+)'/g)]
    .map(([, variable, file]) => [file, Buffer.from(initEnv[variable], 'base64').toString('utf-8')]));
  const environment = new Set<string>([...app.Environment.map((e: any) => e.Name), ...(app.Secrets ?? []).map((s: any) => s.Name)]);
  return { casc: YAML.parse(files['/fw/config/jenkins.yaml']), files, environment };
}

/**
 * EC2: the files the user data writes, the unit's Environment= lines and the entries of the framework's environment
 * file (the plain and secret entries the user data writes with `fw_env_line` and `fw_env_secret`, the workers' parameter and the private
 * name it appends).
 */
export function deliveredOnEc2(json: any): Delivered {
  const script = userData(json);
  const files = filesWritten(script, json);
  const dropIn = files['/etc/systemd/system/jenkins.service.d/override.conf'];
  // The workers' settings: one parameter, appended to the environment file at boot.
  const [parameterId, parameter] = resources(json, 'AWS::SSM::Parameter')[0];
  expect(script).toContain(`--name '{"Ref":"${parameterId}"}' --query Parameter.Value --output text)`);
  expect(script).toContain('printf \'%s\\n\' "$fw_workers" >> \'/etc/fw/application.env\'');
  const settings = parameter.Properties.Value['Fn::Join'][1].map((p: unknown) => (typeof p === 'string' ? p : 'x')).join('');
  const environment = new Set<string>([
    ...settings.split('\n').map((line: string) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line)![1]),
    ...[...dropIn.matchAll(/^Environment="([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]),
    ...[...script.matchAll(/^fw_env_(?:line|secret) '\/etc\/fw\/application.env' '([A-Za-z_][A-Za-z0-9_]*)' /gm)].map((m) => m[1]),
  ]);
  expect(dropIn).toContain('EnvironmentFile=-/etc/fw/application.env');
  return { casc: YAML.parse(files['/etc/jenkins/casc/jenkins.yaml']), files, environment };
}
