/** What the check needs of each application on a platform. */
export interface HostUser {
  readonly stackName: string;
  readonly applicationId: string;
  readonly host: string;
  /** `alb-oidc`: no private route, and a browser sign-in in front of every path but `tokenPaths`. */
  readonly signInByLoadBalancer: boolean;
  readonly tokenPaths?: string[];
  /** The host names its settings name (`pluginSettings` values that are URLs). */
  readonly namedHosts: string[];
}

/** The host names in a plugin's settings: every value that is an http or https URL. */
export function namedHosts(settings: Record<string, string> | undefined): string[] {
  return Object.values(settings ?? {}).flatMap((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:' ? [url.hostname] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Every application whose settings name the host of an `alb-oidc` application that declares no `tokenPaths`: it has no
 * private route, and its browser sign-in stops a machine client on every path. Each names both applications and the
 * two ways out. Run at synth, when every application is attached, whatever the order.
 */
export function unreachableHostProblems(applications: readonly HostUser[]): string[] {
  return applications.flatMap((caller) => caller.namedHosts.flatMap((host) => {
    const target = applications.find((a) => a !== caller && a.host === host && a.signInByLoadBalancer && !a.tokenPaths);
    return target ? [`${caller.stackName} (${caller.applicationId}) names https://${host} in its pluginSettings, the host of ` +
      `${target.stackName} (${target.applicationId}), which signs in at the load balancer (authMode alb-oidc): it has no private ` +
      'route, and no machine client passes the browser sign-in. Give it tokenPaths for the paths the other calls (they skip the ' +
      'sign-in; the calls then reach it through the internet-facing load balancer), or authMode application-oidc, which keeps ' +
      'its private route (docs/platform.md, "Machine clients behind alb-oidc").'] : [];
  }));
}
