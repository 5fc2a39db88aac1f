import { gzipSync } from 'zlib';
import { Token } from 'aws-cdk-lib';
import { Ec2Contexts, type Ec2Context } from '../contract/ec2-context';
import { PLAIN_PATH, SERVICE_USER } from '../contract/plain-names';
import type { IUserDataBuilder } from '../contract/user-data-builder';
import { shownValue, UserError } from '../errors';
import { consoleLog, type ImageRun, imageFiles, imageLogrotate, imageUnit, IMAGE_START_CHECK_SECONDS } from './image-run';
import { HELPERS, PREAMBLE } from './preamble';
import { Shell } from './shell';

/**
 * The framework's `IUserDataBuilder`: renders a bash script for Amazon Linux 2023 (and any dnf/yum system).
 *
 * Each operation validates its arguments before it adds anything, logs one progress line to
 * `/var/log/userdata.log`, and is safe to run on every boot.
 */
export class BashUserDataBuilder implements IUserDataBuilder {
  private readonly steps: string[] = [];
  private readonly helpers = new Set<string>();
  private imageRunning = false;

  public addSystemUpdate(): void {
    this.step('system update', ['fw_pkg -y update']);
  }

  public addCommands(...commands: string[]): void {
    if (commands.length === 0) {
      throw new UserError('addCommands() needs at least one command line.');
    }
    commands.forEach((c, i) => {
      if (typeof c !== 'string') {
        throw new UserError(`addCommands(): command ${i + 1} is ${shownValue(c)}; each command must be a string.`);
      }
      if (/[\r\n]/.test(c)) {
        throw new UserError(`addCommands(): command ${i + 1} (argument index ${i}) is ${shownValue(c)}, which holds a line ` +
          'break; each string is one script line: pass each line as its own argument.');
      }
    });
    this.step(`commands (${commands.length} line${commands.length > 1 ? 's' : ''})`, commands);
  }

  public mountEfs(efsId: string, accessPointId: string, mountPath: string, uid: string, gid: string): void {
    check('mountEfs', [
      ['efsId', efsId, /^fs-[0-9a-f]{8,40}$/, 'an EFS id such as fs-0123456789abcdef0'],
      ['accessPointId', accessPointId, /^fsap-[0-9a-f]{8,40}$/, 'an access point id such as fsap-0123456789abcdef0'],
      ...pathAndOwner(mountPath, uid, gid),
    ]);
    this.helperStep(`mount EFS ${efsId} (${accessPointId}) at ${mountPath}`,
      'fw_mount_efs', efsId, accessPointId, mountPath, uid, gid);
  }

  public mountEbs(deviceName: string, mountPath: string, uid: string, gid: string): void {
    check('mountEbs', [
      ['deviceName', deviceName, /^\/dev\/[a-z0-9]+$/, 'a block device name such as /dev/xvdf'],
      ...pathAndOwner(mountPath, uid, gid),
    ]);
    this.helperStep(`mount EBS ${deviceName} at ${mountPath}`,
      'fw_mount_ebs', deviceName, mountPath, uid, gid);
  }

  public mountDataVolume(context: Ec2Context, ebsDeviceName: string, mountPath: string, uid: string, gid: string): void {
    if (context.keepsData === false) {
      throw new UserError('mountDataVolume(): the application keeps no data (keepsData() is false), so it has no data volume to ' +
        `mount at ${shownValue(mountPath)}; leave the call out, or return true from keepsData().`);
    }
    if (context.hasEfs) {
      const { efsId, accessPointId } = Ec2Contexts.requireEfsIds(context);
      this.mountEfs(efsId, accessPointId, mountPath, uid, gid);
    } else {
      this.mountEbs(ebsDeviceName, mountPath, uid, gid);
    }
  }

  public installCloudWatchAgent(logGroupName: string, logPaths: string[]): void {
    if (logPaths.length === 0) {
      throw new UserError('installCloudWatchAgent(): logPaths is empty; give at least one absolute log file path.');
    }
    check('installCloudWatchAgent', [
      ['logGroupName', logGroupName, /^[\w./#-]{1,512}$/, 'a log group name (letters, digits, _ - / . #; 1-512 characters)'],
      ...logPaths.map((p, i): Arg => [`logPaths[${i}]`, p, ABSOLUTE_PATH, 'an absolute path']),
    ]);
    const tooLong = logPaths.filter((p) => p.length > LOG_STREAM_NAME.maxLength - INSTANCE_ID_MAX_LENGTH);
    if (tooLong.length > 0) {
      throw new UserError(`installCloudWatchAgent(): ${tooLong.map((p) => shownValue(p)).join(', ')} ${tooLong.length > 1 ? 'are' : 'is'} ` +
        `longer than ${LOG_STREAM_NAME.maxLength - INSTANCE_ID_MAX_LENGTH} characters: its log stream, the instance id and the path, ` +
        `would pass CloudWatch Logs' ${LOG_STREAM_NAME.maxLength}.`);
    }
    const config = {
      logs: {
        logs_collected: {
          files: {
            collect_list: logPaths.map((path) => ({
              file_path: path,
              log_group_name: logGroupName,
              log_stream_name: logStreamName(path),
            })),
          },
        },
      },
    };
    this.helperStep(`CloudWatch agent shipping ${logPaths.length} log file(s) to ${logGroupName}`,
      'fw_install_cloudwatch_agent', JSON.stringify(config, undefined, 2));
  }

  public writeFiles(files: Record<string, string>): void {
    const paths = Object.keys(files);
    if (paths.length === 0) throw new UserError('writeFiles() needs at least one file.');
    const bad = paths.filter((p) => !/^\/[^\s\0]+$/.test(p));
    const binary = paths.filter((p) => typeof files[p] !== 'string' || files[p].includes('\0'));
    // The contents are compressed at synth: a token in them would be written as its placeholder text.
    const deployTime = paths.filter((p) => !binary.includes(p) && Token.isUnresolved(files[p]));
    if (bad.length + binary.length + deployTime.length > 0) {
      throw new UserError(`writeFiles(): ${[
        ...bad.map((p) => `path ${JSON.stringify(p)} is not an absolute path without white space`),
        ...binary.map((p) => `the content of ${p} is not text without NUL bytes`),
        ...deployTime.map((p) => `the content of ${p} holds a value known only at deploy time (a token), but the files are ` +
          'compressed at synth; write that value at boot instead (addCommands, from the environment file or a parameter)'),
      ].join('; ')}.`);
    }
    const packed = gzipSync(Buffer.from(paths.map((p) => files[p]).join('\0'), 'utf-8'), { level: 9 }).toString('base64');
    this.useHelper('fw_write_files');
    this.step(`write ${paths.length} file(s)`, [...this.archiveCommands(packed), `fw_write_files ${Shell.quote(paths.join(' '))} "$fw_archive"`]);
  }

  public runImage(context: Ec2Context): void {
    if (this.imageRunning) throw new UserError('runImage(): called twice; an application runs its image once.');
    const run = this._imageRun();
    this.imageRunning = true;
    const files = imageFiles(run.applicationId);
    if (run.data) this.mountDataVolume(context, run.data.ebsDeviceName, run.data.hostPath, run.uid, run.gid);
    this.installCloudWatchAgent(context.logGroupName, [consoleLog(run.applicationId), ...run.logPaths]);
    this.useHelper('fw_image_root');
    this.useHelper('fw_image_service');
    const q = Shell.quote;
    this.step(`image ${run.image}`, [
      `fw_image_root ${q(run.reference)} ${q(files.root)} ${q(run.loginRegion ?? '')}`,
      `fw_image_service ${q(files.root)} ${q(files.dropIn)} ${q(files.environment)} ${q(run.uid)}${run.command ? ` ${q(JSON.stringify(run.command))}` : ''}`,
      ...Object.entries(run.environment).map(([name, value]) => `fw_env_line ${q(files.environment)} ${q(name)} ${q(value)}`),
    ]);
    this.step(`log directory ${run.applicationId}`, [`install -d -m 0700 ${q(files.logDirectory)}`]);
    this.writeFiles({ [files.unit]: imageUnit(run, context.serviceUser), [files.logrotate]: imageLogrotate(run.applicationId) });
    this.step(`service ${run.applicationId}`, [
      'systemctl daemon-reload',
      'systemctl enable --now logrotate.timer',
      `systemctl enable --now ${q(`${run.applicationId}.service`)}`,
      `fw_require_active ${q(`${run.applicationId}.service`)} ${IMAGE_START_CHECK_SECONDS}`,
    ]);
  }

  /**
   * What `runImage` runs: the EC2 runtime's builder knows the plugin's image and where it is pulled from; this one
   * does not, so it refuses.
   * @internal
   */
  protected _imageRun(): ImageRun {
    throw new UserError('runImage(): only the EC2 runtime\'s builder knows the plugin\'s image and where to pull it; ' +
      'it is the one configureUserData() receives.');
  }

  /**
   * The lines that set the shell variable `fw_archive` to a `writeFiles` archive (base64). Here it is written into the
   * script; the EC2 runtime keeps it in parameters read at boot, outside the 16 KB of user data.
   */
  protected archiveCommands(packed: string): string[] {
    return [`fw_archive=${Shell.quote(packed)}`];
  }

  /**
   * The lines that define the helper functions `code` (their bodies, one after the other). Here they are written as
   * they are; the EC2 runtime's builder packs them, which leaves room in its 16 KB of user data.
   */
  protected helperCommands(code: string): string[] {
    return [code];
  }

  /**
   * The framework's step on EC2 with EBS storage, before the plugin's: attaches the stack's data volume at
   * `deviceName` (see `fw_attach_ebs`). Not part of `IUserDataBuilder`: plugins mount, the framework attaches.
   */
  public attachEbsVolume(volumeId: string, deviceName: string, region: string): void {
    check('attachEbsVolume', [['deviceName', deviceName, /^\/dev\/[a-z0-9]+$/, 'a block device name such as /dev/xvdf']]);
    this.helperStep(`attach EBS volume ${volumeId} at ${deviceName}`, 'fw_attach_ebs', volumeId, deviceName, region);
  }

  /**
   * The framework's first step on EC2: from here on a failing boot signals FAILURE to the resource `logicalId` of the
   * stack `stackName` in `region` (see `fw_signal`), and `signalWhenHealthy` signals SUCCESS. Not part of
   * `IUserDataBuilder`.
   */
  public signalTo(region: string, stackName: string, logicalId: string): void {
    this.useHelper('fw_signal');
    this.step(`outcome signalled to ${logicalId}`, [`FW_SIGNAL=(${[region, stackName, logicalId].map(Shell.quote).join(' ')})`]);
  }

  /**
   * The framework's last step on EC2: waits up to `seconds` for the application's health check (`port`, `path`, a
   * status from `lowCode` to `highCode`, as the load balancer asks it), then signals SUCCESS (see `signalTo`).
   */
  public signalWhenHealthy(port: number, path: string, lowCode: number, highCode: number, seconds: number): void {
    if (!this.helpers.has('fw_signal')) throw new Error('signalWhenHealthy() before signalTo()');
    this.useHelper('fw_healthy');
    this.step(`health check ${path}, then SUCCESS`, [
      `fw_healthy ${[port, path, lowCode, highCode, seconds].map((v) => Shell.quote(String(v))).join(' ')}`,
      'fw_signal SUCCESS',
    ]);
  }

  /**
   * The framework's first step on EC2: the application's system account `name`, holding `uid:gid`, home `home` (see
   * `fw_service_account`). Not part of `IUserDataBuilder`: the plugin finds the account in `Ec2Context.serviceUser`.
   */
  public createServiceAccount(name: string, uid: string, gid: string, home: string): void {
    check('createServiceAccount', [
      ['name', name, SERVICE_USER, 'a user name of lower-case letters, digits and - (1 to 32, starting with a letter)'],
      ...pathAndOwner(home, uid, gid),
    ]);
    this.helperStep(`application account ${name} (${uid}:${gid})`, 'fw_service_account', name, uid, gid, home);
  }

  /**
   * The framework's step that writes the application's environment file (see the EC2 runtime): `addCommands` lines that
   * may call `fw_env_line FILE NAME VALUE`, which appends an entry systemd's `EnvironmentFile=` reads back unaltered,
   * `fw_json_value KEY`, which writes one key's value of the JSON on its standard input, and `fw_env_secret FILE NAME
   * REGION ARN [JSON_KEY] [VERSION_STAGE] [VERSION_ID]`, which appends a secret read from Secrets Manager.
   */
  public addEnvironmentCommands(...commands: string[]): void {
    this.useHelper('fw_env_line');
    if (commands.some((c) => c.includes('fw_json_value'))) this.useHelper('fw_json_value');
    if (commands.some((c) => c.includes('fw_env_secret'))) this.useHelper('fw_env_secret');
    this.step(`environment file (${commands.length} lines)`, commands);
  }

  /**
   * The instance's own value of the instance metadata (for example `local-hostname`), appended as an entry of the
   * environment file `file` (`fw_env_line`): the framework's step that tells an application its private name.
   */
  public appendInstanceMetadata(file: string, name: string, metadataPath: string): void {
    this.useHelper('fw_imds');
    this.useHelper('fw_env_line');
    this.step(`${name} from the instance metadata`, [
      `fw_value=$(fw_imds ${Shell.quote(metadataPath)})`,
      'test -n "$fw_value"',
      `fw_env_line ${Shell.quote(file)} ${Shell.quote(name)} "$fw_value"`,
    ]);
  }

  /** The whole script: preamble, the helpers the steps use, the steps in order, a closing progress line. */
  public render(): string {
    const helpers = [...this.helpers].map((h) => withoutComments(HELPERS[h].body)).join('\n');
    return [
      withoutComments(PREAMBLE),
      ...helpers ? this.helperCommands(helpers) : [],
      ...this.steps,
      'fw_log "user data finished"\n',
    ].join('\n');
  }

  /** A step that calls one helper function with quoted arguments. */
  private helperStep(description: string, helper: string, ...args: string[]): void {
    this.useHelper(helper);
    this.step(description, [[helper, ...args.map(Shell.quote)].join(' ')]);
  }

  private step(description: string, lines: string[]): void {
    const n = this.steps.length + 1;
    this.steps.push([`fw_log ${Shell.quote(`step ${n}: ${description}`)}`, ...lines].join('\n') + '\n');
  }

  private useHelper(name: string): void {
    if (this.helpers.has(name)) return;
    HELPERS[name].needs.forEach((n) => this.useHelper(n));
    this.helpers.add(name);
  }
}

type Arg = [name: string, value: string, pattern: RegExp, allowed: string];

const ABSOLUTE_PATH = /^\/[^\0\n]*$/;


/**
 * CloudWatch Logs' log stream names: 1 to `maxLength` characters, none of `forbidden` (the `LogStreamName` shape of
 * its API model; aws/cloudwatch-logs/log-stream-name.json, which a test compares with this). The agent hands a name
 * CloudWatch refuses over as it is, and that file's logs never arrive.
 */
export const LOG_STREAM_NAME = { maxLength: 512, forbidden: /[:*]/g } as const;

/** `{instance_id}` becomes an instance id: `i-` and 8 or 17 hex digits. */
const INSTANCE_ID_MAX_LENGTH = 19;

/**
 * A log file's stream, `<instance id><path>`: a glob's `*` (and any `:`) becomes `_`, so
 * `/var/log/jenkins/audit-*.log` ships as `<instance id>/var/log/jenkins/audit-_.log`, every file it matches in it.
 */
export function logStreamName(path: string): string {
  return `{instance_id}${path.replace(LOG_STREAM_NAME.forbidden, '_')}`;
}

function pathAndOwner(mountPath: string, uid: string, gid: string): Arg[] {
  return [
    ['mountPath', mountPath, PLAIN_PATH, 'an absolute path of letters, digits, _ . / -'],
    ['uid', uid, /^\d{1,10}$/, 'a numeric user id'],
    ['gid', gid, /^\d{1,10}$/, 'a numeric group id'],
  ];
}

/** Fails before anything is added, naming every bad argument; unresolved CDK tokens are checked at deploy time. */
function check(operation: string, args: Arg[]): void {
  const problems = args
    .filter(([, value, pattern]) => typeof value !== 'string' || (!Token.isUnresolved(value) && !pattern.test(value)))
    .map(([name, value, , allowed]) => `${name} ${JSON.stringify(value)} is not ${allowed}`);
  if (problems.length > 0) {
    throw new UserError(`${operation}(): ${problems.join('; ')}.`);
  }
}

/**
 * The framework's own shell code without its comment lines (the shebang and shellcheck directives stay): they explain
 * the source in `preamble.ts`, and in the script they would only spend EC2's 16 KB of user data.
 */
function withoutComments(code: string): string {
  return code.split('\n').filter((line) => !/^\s*#(?!!|\s*shellcheck)/.test(line)).join('\n');
}
