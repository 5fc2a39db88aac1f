/**
 * Why a known vulnerability is deployed anyway, and until when (`acceptedAdvisories`): the risk acceptance a reviewer
 * reads in the configuration. After `until` it lapses and the profile's rule applies again.
 */
export interface AcceptedAdvisory {
  /** Why it is deployed anyway: what narrows this advisory here (for example the mitigation in place). */
  readonly reason: string;
  /** The last day the acceptance holds, `YYYY-MM-DD` (UTC). @default - no end */
  readonly until?: string;
  /**
   * Who accepted the risk and answers for it: a person or a team, as your organisation names them. Required where the
   * profile refuses known vulnerabilities (PRODUCTION). @default - not stated
   */
  readonly owner?: string;
  /**
   * Where an assessor reads the acceptance: a ticket, a risk-register entry or its URL. Required where the profile
   * refuses known vulnerabilities (PRODUCTION). @default - not stated
   */
  readonly reference?: string;
}

/** The longest `reason` and `reference`, and the longest `owner`. */
export const ACCEPTANCE_TEXT_MAX = 500;
export const ACCEPTANCE_OWNER_MAX = 200;
