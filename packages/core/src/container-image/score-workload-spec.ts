import { ContainerImageSpec, type ContainerImageProps } from './container-image-spec';
import type { ScoreMapping } from './score-mapping';
import type { ApplicationSize } from '../contract/application-size';
import { UserError } from '../errors';

/**
 * The application a Score workload file describes: a `ContainerImageSpec` of the values it maps to, with the size its
 * resources ask for and the variables that hold its host name, filled with the deployment's FQDN.
 */
export class ScoreWorkloadSpec extends ContainerImageSpec {
  /**
   * @param props the values the workload maps to
   * @param score where it comes from (`where`, for messages), its size, its variables that hold the host name, and what
   *   the mapping changed (`notes`)
   */
  constructor(props: ContainerImageProps, private readonly score: Pick<ScoreMapping, 'hostVariables' | 'size' | 'notes'> & { readonly where: string }) {
    super(props);
  }

  /** What the mapping changed that the user should know (a size rounded up, limits unused on EC2), for synth's warnings. */
  public get notes(): string[] {
    return this.score.notes.map((note) => `${this.score.where}: ${note}`);
  }

  public defaultSize(): ApplicationSize {
    return { ...super.defaultSize(), ...this.score.size };
  }

  public containerEnvironmentVariables(fqdn: string, sslEnabled: boolean, authMode: string): Record<string, string> {
    const hosts = Object.entries(this.score.hostVariables);
    if (hosts.length > 0 && fqdn === '') {
      throw new UserError(`${this.score.where}: ${hosts.map(([name]) => name).join(', ')} hold the application's host name (a dns ` +
        'resource\'s host), which comes from the domain and subdomain keys; set domain (and subdomain).');
    }
    return {
      ...super.containerEnvironmentVariables(fqdn, sslEnabled, authMode),
      ...Object.fromEntries(hosts.map(([name, pieces]) => [name, pieces.map((p) => ('host' in p ? fqdn : p.text)).join('')])),
    };
  }
}
