import type { ContainerCommand } from '../contract/container-command';
import { Ec2Files } from '../contract/oidc-integration';
import { ServiceHardening } from '../contract/service-hardening';

/** What the EC2 runtime tells the builder about the plugin's image when the plugin calls `runImage`. */
export interface ImageRun {
  /** The application's name: its unit, its account, its directories. */
  readonly applicationId: string;
  /** The image as the plugin names it (for the log). */
  readonly image: string;
  /** What the instance pulls: pinned by its digest when one is given, through the pull-through cache when there is one. */
  readonly reference: string;
  /** The region of the ECR registry `reference` names, to sign in to; undefined for a registry signed in to by nobody. */
  readonly loginRegion?: string;
  /** `containerUser()`'s ids: the data volume's owner. */
  readonly uid: string;
  readonly gid: string;
  /** Where its data is, when it keeps data (`keepsData()`). @default - none: only the image's declared volumes are writable */
  readonly data?: ImageData;
  /** The plugin's `containerEnvironmentVariables()`, after the image's own and before the application's environment file. */
  readonly environment: Record<string, string>;
  /** More log files to ship (`ec2LogPaths()`), besides the console's. */
  readonly logPaths: string[];
  /** What runs instead of the image's entry point and command (`containerCommand()`). @default - the image's */
  readonly command?: ContainerCommand;
}

/** Where an image run on EC2 keeps its data. */
export interface ImageData {
  /** Where the image keeps its data (`containerDataPath()`). */
  readonly containerPath: string;
  /** Where the data volume is mounted on the instance (`ec2DataPath()`). */
  readonly hostPath: string;
  /** The EBS data volume's device name (`ebsDeviceName()`). */
  readonly ebsDeviceName: string;
}

/** Where images' file systems are unpacked, one directory an application. */
export const IMAGE_ROOTS = '/var/lib/fw/images';

/** A container engine's limit on open files (Docker's default, 1048576, is far above what systemd gives: 1024 soft). */
export const IMAGE_OPEN_FILES = 65536;

/** Seconds between a failed start and the next, as a container's restart policy would. */
export const IMAGE_RESTART_SECONDS = 10;

/** Seconds after the start before the boot checks that the service is still running (it has not crashed). */
export const IMAGE_START_CHECK_SECONDS = 30;

/** Where everything an application's image writes to standard output or error goes, shipped to its log group. */
export function consoleLog(applicationId: string): string {
  return `${imageFiles(applicationId).logDirectory}/console.log`;
}

/** The files a run writes on the instance. */
export function imageFiles(applicationId: string) {
  return {
    root: `${IMAGE_ROOTS}/${applicationId}`,
    unit: `/etc/systemd/system/${applicationId}.service`,
    dropIn: `/etc/systemd/system/${applicationId}.service.d/image.conf`,
    environment: `/etc/fw/${applicationId}/image.env`,
    logrotate: `/etc/logrotate.d/fw-${applicationId}`,
    logDirectory: `/var/log/${applicationId}`,
  };
}

/**
 * The application's unit: the image's file system as its root, its data volume bound where the image keeps its data
 * (when it keeps any), the host's name resolution read-only, the runtime's sandbox (`ServiceHardening`) with only the
 * data path (and, from the drop-in, the image's declared volumes) writable,
 * restarted on failure, its output appended to the console log. `ExecStart=` and `WorkingDirectory=` come from the image
 * at boot (`fw_image_service`, in the drop-in).
 */
export function imageUnit(run: ImageRun, serviceUser: string): string {
  const files = imageFiles(run.applicationId);
  return [
    '[Unit]',
    `Description=${run.applicationId}: the image ${run.image}, run from its unpacked file system (@fw/core)`,
    'Wants=network-online.target',
    'After=network-online.target',
    ...run.data ? [`RequiresMountsFor=${run.data.hostPath}`] : [],
    '',
    '[Service]',
    'Type=exec',
    `RootDirectory=${files.root}`,
    'MountAPIVFS=yes',
    ...run.data ? [`BindPaths=${run.data.hostPath}:${run.data.containerPath}`] : [],
    'BindReadOnlyPaths=/etc/resolv.conf /etc/hosts',
    `EnvironmentFile=${files.environment}`,
    `EnvironmentFile=-${Ec2Files.APPLICATION_ENVIRONMENT_FILE}`,
    ...ServiceHardening._inImageRoot(serviceUser, run.data ? [run.data.containerPath] : []),
    `LimitNOFILE=${IMAGE_OPEN_FILES}`,
    'Restart=on-failure',
    `RestartSec=${IMAGE_RESTART_SECONDS}`,
    `StandardOutput=append:${consoleLog(run.applicationId)}`,
    'StandardError=inherit',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

/** The console log rotated daily, a week kept on the instance (the log group keeps it as the profile says). */
export function imageLogrotate(applicationId: string): string {
  return [
    `${consoleLog(applicationId)} {`,
    '  daily',
    '  rotate 7',
    '  maxsize 100M',
    '  missingok',
    '  notifempty',
    '  compress',
    '  copytruncate',
    '}',
    '',
  ].join('\n');
}
