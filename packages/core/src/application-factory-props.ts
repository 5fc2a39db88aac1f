import type { AllowFrom } from './context/allow-from';
import type { FactorySettings } from './context/factory-settings';
import type { Platform } from './platform/platform';

/**
 * How to deploy: the settings every context key gives (`FactorySettings`), and the platform to attach to with how to
 * attach. Without a platform, the defaults make a DEV deployment without a domain.
 */
export interface ApplicationFactoryProps extends FactorySettings {
  /**
   * The platform to attach to, in another stack of the same CDK app: the application uses its network, load balancer
   * (a rule for its host name), cluster, file system (an access point of its own), keys, alarm topic and private
   * namespace instead of building its own. Its security profile, and unless given its domain and hosted zone, are
   * the platform's.
   * @default - a self-contained deployment with its own network, load balancer, file system and monitoring
   */
  readonly platform?: Platform;
  /**
   * On a platform: the priority of the application's rule on the shared listener, unique on the platform.
   * @default - derived from the host name (`defaultListenerPriority`); a clash is refused at synth
   */
  readonly listenerPriority?: number;
  /**
   * On a platform: other applications of the platform that may connect to this one, each on one port. Nothing else
   * reaches the application but the load balancer. Each source must be attached to the platform before this one.
   * @default - none
   */
  readonly allowFrom?: AllowFrom[];
}
