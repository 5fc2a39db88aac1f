import { UserError } from '../errors';
import { PLAIN_PATH, SERVICE_USER } from './plain-names';

/**
 * systemd's sandbox for an application's service on EC2 (systemd.exec(5) of systemd 252, the version Amazon Linux
 * 2023 runs; the tests check every line with `systemd-analyze verify` and the exposure with `systemd-analyze security`).
 * Left out on purpose: `MemoryDenyWriteExecute` (a JVM's JIT compiler writes the code it runs), `SystemCallFilter` and
 * `RestrictAddressFamilies` (what an application calls is not known here), `ProcSubset=pid` (a JVM sizes itself
 * from /proc/meminfo).
 */
const SANDBOX = [
  // No setuid program (sudo, su) can raise the service's privileges, and it holds no capability.
  'NoNewPrivileges=yes',
  'CapabilityBoundingSet=',
  'AmbientCapabilities=',
  'RestrictSUIDSGID=yes',
  // The whole file system read-only but the paths the application writes; no home directories; its own /tmp and /dev.
  'ProtectSystem=strict',
  'ProtectHome=yes',
  'PrivateTmp=yes',
  'PrivateDevices=yes',
  // The kernel, the clock, the host name and the control groups are not the service's to change.
  'ProtectKernelTunables=yes',
  'ProtectKernelModules=yes',
  'ProtectKernelLogs=yes',
  'ProtectControlGroups=yes',
  'ProtectClock=yes',
  'ProtectHostname=yes',
  'RestrictNamespaces=yes',
  'RestrictRealtime=yes',
  'LockPersonality=yes',
  'SystemCallArchitectures=native',
  // Files the service creates are not readable by other users.
  'UMask=0027',
] as const;

/**
 * The `[Service]` lines that run an application's service unprivileged on EC2: as the framework's account for it
 * (`Ec2Context.serviceUser`), in systemd's sandbox. Put them in the unit, or in a drop-in for a package's unit.
 */
export class ServiceHardening {
  /**
   * `User=`, `Group=`, the sandbox, and `ReadWritePaths=` for `writablePaths` (the only places the service may write,
   * each existing when the service starts).
   * @param user the service's account, `Ec2Context.serviceUser`
   * @param writablePaths absolute paths the service writes to, for example its data path and its log directory
   */
  public static systemdLines(user: string, writablePaths: string[]): string[] {
    const lines = sandboxLines(user, writablePaths);
    if (writablePaths.length === 0) {
      throw new UserError(`ServiceHardening.systemdLines(): writablePaths ${JSON.stringify(writablePaths)} must be one or more ` +
        'absolute paths of letters, digits and _ . / - (the places the service writes to).');
    }
    return [...lines, `ReadWritePaths=${writablePaths.join(' ')}`];
  }

  /**
   * The same sandbox for a service whose root is an image's file system (`RootDirectory=`): `writablePaths` are paths
   * inside that root (systemd.exec(5): a `+` prefix takes a path relative to `RootDirectory=`).
   * @internal
   */
  public static _inImageRoot(user: string, writablePaths: string[]): string[] {
    return [
      // The host's home directories are not in the image's root at all: ProtectHome= would hide the image's own
      // /home and /root, and protect nothing of the host's.
      ...sandboxLines(user, writablePaths).filter((line) => line !== 'ProtectHome=yes'),
      // None for an image that keeps no data: it writes only its declared volumes, which the boot's drop-in adds.
      ...writablePaths.length > 0 ? [`ReadWritePaths=${writablePaths.map((p) => `+${p}`).join(' ')}`] : [],
    ];
  }

  private constructor() {}
}

/** `User=`, `Group=` and the sandbox, for an account name and plain writable paths (checked, naming what is wrong). */
function sandboxLines(user: string, writablePaths: string[]): string[] {
  if (!SERVICE_USER.test(user)) {
    throw new UserError(`ServiceHardening.systemdLines(): user ${JSON.stringify(user)} is not an account name; pass Ec2Context.serviceUser.`);
  }
  if (writablePaths.some((p) => typeof p !== 'string' || !PLAIN_PATH.test(p))) {
    throw new UserError(`ServiceHardening.systemdLines(): writablePaths ${JSON.stringify(writablePaths)} must be one or more ` +
      'absolute paths of letters, digits and _ . / - (the places the service writes to).');
  }
  return [`User=${user}`, `Group=${user}`, ...SANDBOX];
}
