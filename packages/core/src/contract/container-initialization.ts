/**
 * What a plugin prepares before its container starts on Fargate: the framework runs an init container from the
 * application's own image (so nothing new is pulled or built), as the application's user, with the data volume
 * mounted at `containerDataPath()`. It writes `files` into `ContainerFiles.DIRECTORY`, then runs `commands`. The
 * application's container starts only when that succeeded, with the directory mounted read-only.
 */
export interface ContainerInitialization {
  /**
   * File name -> content, written to `ContainerFiles.DIRECTORY`. Content travels in the task definition: put only
   * references to secrets in it (for example `${OIDC_CLIENT_SECRET}`), never values.
   */
  readonly files: Record<string, string>;
  /**
   * Shell lines (sh) run after the files are written, for example installing plugins into the data directory.
   * @default - none
   */
  readonly commands?: string[];
  /**
   * Names of the application's secrets (its `secrets()`, the OIDC client secret) the init container gets in its
   * environment too, for `commands` to check before the application starts (the build server refuses a secret that
   * configuration-as-code would expand). Each must be one of the application's secrets.
   * @default - none
   */
  readonly secrets?: string[];
}

/** Where delivered files appear in the container. */
export class ContainerFiles {
  /** The directory of `ContainerInitialization.files`, in the init and the application container. */
  public static readonly DIRECTORY = '/fw/config';

  private constructor() {}
}
