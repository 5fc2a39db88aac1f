import type { ApplicationSize } from '../contract/application-size';
import { ApplicationSpec, type IApplicationSpec } from '../contract/application-spec';
import { defaultAuthModes } from '../contract/auth-mode';
import type { ContainerCommand } from '../contract/container-command';
import type { DatabaseRequirement } from '../contract/database-requirement';
import type { DefaultCredential } from '../contract/default-credential';
import type { Ec2Context } from '../contract/ec2-context';
import type { EgressRule } from '../contract/egress-rule';
import type { RequestBodyLimit } from '../contract/request-body-limit';
import type { IUserDataBuilder } from '../contract/user-data-builder';

/**
 * An off-the-shelf image described by values (`containerImage` in cdk.json, or these props in code): what a plugin
 * written in code would return from its members, with the same hardening, checks and evidence.
 */
export interface ContainerImageProps {
  /** The application's name: its stack's resources, its log group, its data directory and its private host. */
  readonly applicationId: string;
  /** The image with its tag, for example `sonatype/nexus3:3.70.1`; its digest comes from `imageDigests`. */
  readonly image: string;
  /** The port the container listens on. */
  readonly port: number;
  /** The container's user, `uid:gid`, which owns the data directory. */
  readonly user: string;
  /**
   * Where the image keeps its data, for example `/nexus-data`: the file system or volume is mounted there.
   * @default - it keeps no data: no file system or volume of its own, only the image's declared volumes are writable
   */
  readonly dataPath?: string;
  /** The health check's path. @default '/' */
  readonly healthCheckPath?: string;
  /** The port the health check calls, where the image answers it on a management port. @default - `port` */
  readonly healthCheckPort?: number;
  /** Replaces the image's `ENTRYPOINT` (then its `CMD` is not used unless `command` is given). @default - the image's */
  readonly entryPoint?: string[];
  /** Replaces the image's `CMD`. @default - the image's */
  readonly command?: string[];
  /** How long a first start may take before health checks count. @default - `STARTUP_SECONDS_DEFAULT` */
  readonly startupSeconds?: number;
  /** The container's environment (no secrets: those are `secrets` by ARN). @default - none */
  readonly environment?: Record<string, string>;
  /** A PostgreSQL database the framework creates for it. @default - none */
  readonly database?: DatabaseRequirement;
  /** Paths whose requests carry bodies over 8 KB, each with the largest it takes. @default - none */
  readonly requestBodyLimits?: RequestBodyLimit[];
  /** Auth modes it can run under: `none` and `alb-oidc` (an image does not sign users in through the framework). @default - both */
  readonly authModes?: string[];
  /** Destinations it calls beyond what the framework allows. @default - none */
  readonly egress?: EgressRule[];
  /** The accounts the image starts with at its vendor's published password, for the evidence report. @default - none */
  readonly defaultCredentials?: DefaultCredential[];
}

/**
 * The built-in plugin for an image described by values: a task on Fargate. On EC2 the framework runs the image itself
 * (`IUserDataBuilder.runImage`), under systemd in the runtime's sandbox.
 */
export class ContainerImageSpec extends ApplicationSpec implements IApplicationSpec {
  /**
   * @param props the image and what it needs, as `containerImage` gives them in cdk.json
   */
  constructor(private readonly props: ContainerImageProps) {
    super();
  }

  public applicationId(): string { return this.props.applicationId; }
  public defaultContainerImage(): string { return this.props.image; }
  public applicationPort(): number { return this.props.port; }
  /** Not used when it keeps no data (`keepsData()`). */
  public containerDataPath(): string { return this.props.dataPath ?? ''; }
  public keepsData(): boolean { return this.props.dataPath !== undefined; }
  public efsDataPath(): string { return `/${this.props.applicationId}`; }
  public volumeName(): string { return `${this.props.applicationId}-data`; }
  public containerUser(): string { return this.props.user; }
  public efsPermissions(): string { return '750'; }
  public ebsDeviceName(): string { return '/dev/xvdf'; }
  public ec2DataPath(): string { return `/srv/${this.props.applicationId}`; }
  public ec2LogPaths(): string[] { return []; }
  public healthCheckPath(): string { return this.props.healthCheckPath ?? '/'; }
  public healthCheckPort(): number | undefined { return this.props.healthCheckPort; }
  public containerCommand(): ContainerCommand | undefined {
    const { entryPoint, command } = this.props;
    return entryPoint || command ? { ...entryPoint ? { entryPoint } : {}, ...command ? { command } : {} } : undefined;
  }
  public supportedAuthModes(): string[] { return this.props.authModes ?? defaultAuthModes(false); }
  public egressRules(): EgressRule[] { return this.props.egress ?? []; }
  public defaultCredentials(): DefaultCredential[] { return this.props.defaultCredentials ?? []; }
  public requestBodyLimits(): RequestBodyLimit[] { return this.props.requestBodyLimits ?? []; }
  public database(): DatabaseRequirement | undefined { return this.props.database; }
  public defaultSize(): ApplicationSize { return this.props.startupSeconds ? { startupSeconds: this.props.startupSeconds } : {}; }

  public containerEnvironmentVariables(fqdn: string, sslEnabled: boolean, authMode: string): Record<string, string> {
    void [fqdn, sslEnabled, authMode];
    return { ...this.props.environment ?? {} };
  }

  public configureUserData(builder: IUserDataBuilder, context: Ec2Context): void {
    builder.addSystemUpdate();
    builder.runImage(context);
  }
}
