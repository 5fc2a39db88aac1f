/** Another application of the same platform that may connect to this one (`ApplicationFactoryProps.allowFrom`). */
export interface AllowFrom {
  /** The other application's `applicationId()`. */
  readonly applicationId: string;
  /** The TCP port it may connect to. */
  readonly port: number;
}
