import type { Ec2Context } from './ec2-context';

/**
 * Builds the EC2 startup script. The framework supplies it to
 * `IApplicationSpec.configureUserData`; a plugin only calls it.
 *
 * Besides its operations, the script it renders defines these shell functions. Three are for `addCommands` lines:
 * - `fw_log MESSAGE...`: append a timestamped progress line to `/var/log/userdata.log`;
 * - `fw_pkg ARGS...`: run `dnf` where it exists and `yum` otherwise (`fw_pkg install -y foo`);
 * - `fw_require_active UNIT SECONDS`: wait, then fail the boot unless the systemd unit is active, appending its last
 *   50 journal lines to the log; from then on a failure appends that unit's journal.
 *
 * The others are the framework's own, defined only when a step needs them; a plugin calls the operations instead:
 * - `fw_journal_tail`, `fw_on_exit`: on any failure, log the failing line and status and the last 50 journal lines;
 * - `fw_imds PATH`: read a value of the instance metadata (IMDSv2);
 * - `fw_fstab_set`: keep exactly one fstab entry per mount point (`mountEfs`, `mountEbs`);
 * - `fw_find_block_device`, `fw_attach_ebs`, `fw_mount_ebs`: find, attach, format only when empty, and mount the EBS
 *   data volume (`mountEbs`, `mountDataVolume`);
 * - `fw_mount_efs`: mount EFS through its access point with TLS and IAM (`mountEfs`, `mountDataVolume`);
 * - `fw_install_cloudwatch_agent`: install and configure the log agent (`installCloudWatchAgent`);
 * - `fw_write_files`: write files the framework embeds, byte for byte (the OIDC settings, a plugin's files);
 * - `fw_service_account`, `fw_free_id`: the application's own account, `Ec2Context.serviceUser` (the framework's first
 *   step on EC2);
 * - `fw_env_line`: append an entry to the application's environment file, quoted as systemd reads it back;
 * - `fw_json_value KEY`: one key's value of the JSON on standard input (a secret given in ECS's JSON-key form);
 * - `fw_env_secret FILE NAME REGION ARN [JSON_KEY] [VERSION_STAGE] [VERSION_ID]`: appends a secret read from Secrets
 *   Manager with the instance role to an environment file, stopping the boot when it cannot be read or is empty;
 * - `fw_image_root`, `fw_image_service`: pull and unpack the plugin's image, write its unit's command line and its
 *   environment (`runImage`);
 * - `fw_signal`, `fw_healthy`: on EC2, tell CloudFormation the boot's outcome (FAILURE from `fw_on_exit`; SUCCESS as the
 *   last step, once the application answers its health check as the load balancer asks it).
 *
 * The script runs with `set -Eeuo pipefail` and never traces (`set -x` would echo secrets).
 */
export interface IUserDataBuilder {
  /** Adds an operating-system package update. */
  addSystemUpdate(): void;

  /**
   * Appends script lines, each one line of bash, to the startup script as they are. A string that holds a line break
   * is refused (pass each line as its own argument).
   *
   * Values that come from outside the plugin must be quoted by the caller (see `Shell.quote`).
   */
  addCommands(...commands: string[]): void;

  /**
   * Mounts the EFS file system through its access point, with TLS and IAM authorisation, at `mountPath`,
   * owned by `uid:gid`. Safe to run on every boot.
   */
  mountEfs(efsId: string, accessPointId: string, mountPath: string, uid: string, gid: string): void;

  /**
   * Finds the EBS volume attached as `deviceName` (on Nitro instances it appears as an NVMe device), formats it only
   * when it has no filesystem yet, and mounts it by UUID with `nofail` at `mountPath`, owned by `uid:gid`.
   * Safe to run on every boot.
   */
  mountEbs(deviceName: string, mountPath: string, uid: string, gid: string): void;

  /**
   * Mounts the data volume the way `context` says: EFS through its access point when `context.hasEfs`
   * (rule 6: fails naming the missing id when `efsId` or `accessPointId` is absent), otherwise the EBS volume
   * `ebsDeviceName`; at `mountPath`, owned by `uid:gid`. Refused when `context.keepsData` is false: there is none.
   */
  mountDataVolume(context: Ec2Context, ebsDeviceName: string, mountPath: string, uid: string, gid: string): void;

  /** Installs and starts the CloudWatch agent, shipping each of `logPaths` to the log group `logGroupName`. */
  installCloudWatchAgent(logGroupName: string, logPaths: string[]): void;

  /**
   * Writes files, absolute path -> content, byte for byte: a new file is created by root with mode 0644, an existing
   * one keeps its owner and mode (create it first with `install -m ... /dev/null PATH` to choose them). The directories
   * must exist. Paths without white space; contents are configuration, with only references to secrets in them.
   *
   * The contents travel compressed, and on EC2 outside the user data when they are large (EC2 takes 16 KB of it), so
   * a plugin can deliver its configuration files without counting bytes. Because they are compressed at synth, they
   * cannot hold a value known only at deploy time (a token, such as a resource's ARN): that is refused; write such a
   * value at boot with `addCommands`.
   *
   * Each call is one step, run where it stands among the others (after what was added before it, before what is added
   * after); it may be called more than once, and a path written twice keeps the later content.
   */
  writeFiles(files: Record<string, string>): void;

  /**
   * Runs the plugin's own image (`defaultContainerImage()`) as the application's service, with no Docker lines in the
   * plugin and no container engine left running: the framework mounts the data volume at `ec2DataPath()` (as
   * `mountDataVolume`), ships the image's output and `ec2LogPaths()` to `context.logGroupName`, pulls the image by its
   * digest (`imageDigests`; required in PRODUCTION) through the pull-through cache when there is one, unpacks its file
   * system, and runs its entrypoint and command from it under systemd as `context.serviceUser`, in the sandbox of
   * `ServiceHardening` (only `containerDataPath()`, where the data volume is bound, is writable), with the image's
   * environment, then `containerEnvironmentVariables()`, then the application's environment file; restarted on failure.
   * The boot fails, with the unit's journal in the log, when it is not running soon after its start. Call it once,
   * after `addSystemUpdate` and anything the image's data needs first. docs/writing-a-plugin.md "An image on EC2".
   */
  runImage(context: Ec2Context): void;
}
