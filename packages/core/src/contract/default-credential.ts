import { isLine, OUTBOUND_CONNECTION_TEXT_MAX } from './outbound-connection';

/**
 * An account the application's image starts with, at a password its vendor publishes, until someone changes it (the
 * administrator `admin`, password `admin`, of many images): the evidence report lists each as the first thing to change
 * (PCI DSS 2.2.2), since the framework can neither see nor change it.
 */
export interface DefaultCredential {
  /** The account, for example `admin`. Never its password. */
  readonly account: string;
  /** Where to change it, for example `the web interface: My Account > Security`. */
  readonly change: string;
}

/** Every problem with a plugin's default credentials, each naming the entry, its value and what is allowed. */
export function defaultCredentialProblems(list: unknown, where: string): string[] {
  if (!Array.isArray(list)) return [`${where} returned ${JSON.stringify(list)}; allowed: a list of DefaultCredential.`];
  return list.flatMap((c: DefaultCredential, i) => (['account', 'change'] as const).flatMap((field) => (isLine(c?.[field]) ? [] : [
    `${where}[${i}].${field} ${JSON.stringify(c?.[field])}; allowed: one line of 1 to ${OUTBOUND_CONNECTION_TEXT_MAX} characters.`,
  ])));
}
