/**
 * Why a known vulnerability is deployed anyway, and until when (`acceptedAdvisories`): the risk acceptance a reviewer
 * reads in the configuration. After `until` it lapses and the profile's rule applies again.
 */
export interface AcceptedAdvisory {
  /** Who accepted it and why (for example the mitigation in place and the ticket). */
  readonly reason: string;
  /** The last day the acceptance holds, `YYYY-MM-DD` (UTC). @default - no end */
  readonly until?: string;
}
