import type { Ec2Context } from './ec2-context';

/**
 * Builds the EC2 startup script (the spec's UserDataBuilder). The framework supplies it to
 * `IApplicationSpec.configureUserData`; a plugin only calls it.
 *
 * Besides its operations, the script it renders defines two shell functions that `addCommands` lines may use:
 * - `fw_log MESSAGE...`: append a progress line to `/var/log/userdata.log`;
 * - `fw_pkg ARGS...`: run `dnf` where it exists and `yum` otherwise, non-interactively (`fw_pkg install -y foo`).
 *
 * The script runs with `set -Eeuo pipefail` and never traces (`set -x` would echo secrets).
 */
export interface IUserDataBuilder {
  /** Adds an operating-system package update. */
  addSystemUpdate(): void;

  /**
   * Appends script lines, each one line of bash, to the startup script as they are.
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
   * Mounts the data volume the way `context` says (spec rule 5.4): EFS through its access point when `context.hasEfs`
   * (rule 6: fails naming the missing id when `efsId` or `accessPointId` is absent), otherwise the EBS volume
   * `ebsDeviceName`; at `mountPath`, owned by `uid:gid`.
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
   * a plugin can deliver its configuration files without counting bytes.
   */
  writeFiles(files: Record<string, string>): void;
}
