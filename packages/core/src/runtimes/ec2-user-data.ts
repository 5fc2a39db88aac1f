import { gzipSync } from 'zlib';
import { aws_iam as iam, aws_ssm as ssm, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { BashUserDataBuilder } from '../userdata/bash-user-data-builder';
import type { ImageRun } from '../userdata/image-run';
import { Shell } from '../userdata/shell';

/**
 * A standard-tier String parameter holds at most 4 KB (4096 characters).
 * @see https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-advanced-parameters.html
 */
const PARAMETER_MAX_CHARACTERS = 4096;

/** `variable=$(aws ssm get-parameter ...)`: an assignment, so a failed read stops the boot. */
export function readParameter(variable: string, parameter: ssm.IStringParameter): string {
  return `${variable}=$(aws ssm get-parameter --region ${Shell.quote(Stack.of(parameter).region)} ` +
    `--name ${Shell.quote(parameter.parameterName)} --query Parameter.Value --output text)`;
}

/**
 * Lets `role` read `parameters` at boot: ssm:GetParameter only, the one call `readParameter` makes (grantRead would add
 * DescribeParameters, which no resource ARN can scope).
 */
export function grantBootRead(role: iam.IRole, parameters: ssm.IStringParameter[]): void {
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['ssm:GetParameter'], resources: parameters.map((p) => p.parameterArn) }));
}

/** The shell variable that holds the unpacked helper functions on EC2. */
export const PACKED_HELPERS_VARIABLE = 'fw_helpers';

/**
 * The EC2 runtime's builder. `writeFiles` archives are kept in parameters of at most 4 KB each, which the instance's
 * role may read and the boot reads back, so a plugin's files do not count against EC2's 16 KB of user data.
 */
export class Ec2UserDataBuilder extends BashUserDataBuilder {
  private archives = 0;

  /**
   * @param imageRun what `runImage` runs: the plugin's image, admitted by the factory's rules (its digest in
   *   PRODUCTION, the pull-through cache) and granted to the instance's role when the plugin asks for it
   */
  constructor(private readonly scope: Construct, private readonly role: iam.IRole, private readonly imageRun: () => ImageRun) {
    super();
  }

  /** @internal */
  protected _imageRun(): ImageRun {
    return this.imageRun();
  }

  /**
   * The helper functions as base64 of their gzip, unpacked and defined by the boot's first step: about half the
   * bytes, in the script itself (no read that could fail or be changed). An assignment, so a failed unpack stops the
   * boot (inherit_errexit, pipefail); `eval` then defines exactly the text the framework wrote.
   */
  protected helperCommands(code: string): string[] {
    const packed = gzipSync(Buffer.from(code, 'utf-8'), { level: 9 }).toString('base64');
    return [`${PACKED_HELPERS_VARIABLE}=$(printf '%s' ${Shell.quote(packed)} | base64 -d | gunzip)`, `eval "$${PACKED_HELPERS_VARIABLE}"`];
  }

  protected archiveCommands(packed: string): string[] {
    const archive = ++this.archives;
    const parts = (packed.match(new RegExp(`.{1,${PARAMETER_MAX_CHARACTERS}}`, 'g')) ?? []).map((chunk, i) =>
      new ssm.StringParameter(this.scope, `Files${archive}Part${i + 1}`, {
        description: `Part ${i + 1} of a file archive the instance writes at boot (base64 of gzip)`,
        stringValue: chunk,
      }));
    grantBootRead(this.role, parts);
    return [
      ...parts.map((part, i) => readParameter(`fw_part_${i + 1}`, part)),
      `fw_archive="${parts.map((_, i) => `$fw_part_${i + 1}`).join('')}"`,
    ];
  }
}
