/** Who opens a connection: the application itself, or the ephemeral workers it starts. */
export enum ConnectionSource {
  /** The application's own tasks or instances. */
  APPLICATION = 'application',
  /** Its ephemeral workers (the build server's agents). */
  WORKERS = 'workers',
}

/**
 * A connection the application opens to a system outside the framework's stacks, which no security-group rule names
 * (the egress rules allow a port, not a destination): drawn in both diagrams and listed in the evidence report, so that
 * an assessor sees each one, above all a path into the cardholder data environment.
 */
export interface OutboundConnection {
  /** What it reaches, as an assessor would name it, for example `Payment gateway key`. */
  readonly name: string;
  /** Where it goes: a host name or address, or what names it, for example `the role and secret a pipeline names`. */
  readonly destination: string;
  /** What flows and why, for example `a build assumes a role and reads the key from Secrets Manager`. */
  readonly purpose: string;
  /** Who opens it. @default ConnectionSource.APPLICATION */
  readonly from?: ConnectionSource;
  /** Whether it may carry account data, or keys that protect it: drawn as such, whatever the application's scope. @default false */
  readonly carriesAccountData?: boolean;
}

/** The longest name, destination and purpose: a line of a diagram's node or edge. */
export const OUTBOUND_CONNECTION_TEXT_MAX = 120;
/** At most this many connections a plugin declares. */
export const OUTBOUND_CONNECTIONS_MAX = 20;

/** Every problem with a plugin's outbound connections, each naming the entry, its value and what is allowed. */
export function outboundConnectionProblems(list: unknown, where: string): string[] {
  if (!Array.isArray(list)) return [`${where} returned ${JSON.stringify(list)}; allowed: a list of OutboundConnection.`];
  if (list.length > OUTBOUND_CONNECTIONS_MAX) return [`${where} lists ${list.length} connections; allowed: at most ${OUTBOUND_CONNECTIONS_MAX}.`];
  const sources = Object.values(ConnectionSource) as string[];
  return list.flatMap((c: OutboundConnection, i) => [
    ...(['name', 'destination', 'purpose'] as const).flatMap((field) => (isLine(c?.[field]) ? [] : [
      `${where}[${i}].${field} ${JSON.stringify(c?.[field])}; allowed: one line of 1 to ${OUTBOUND_CONNECTION_TEXT_MAX} characters.`,
    ])),
    ...c?.from === undefined || sources.includes(c.from) ? [] : [`${where}[${i}].from ${JSON.stringify(c.from)}; allowed: ${sources.join(', ')} (ConnectionSource).`],
    ...c?.carriesAccountData === undefined || typeof c.carriesAccountData === 'boolean' ? []
      : [`${where}[${i}].carriesAccountData ${JSON.stringify(c.carriesAccountData)}; allowed: true or false.`],
  ]);
}

/** One line of text: not empty, no control character, not too long. */
export function isLine(value: unknown, max = OUTBOUND_CONNECTION_TEXT_MAX): value is string {
  // eslint-disable-next-line no-control-regex
  return typeof value === 'string' && value.trim() !== '' && value.length <= max && !/[\u0000-\u001f\u007f]/.test(value);
}
