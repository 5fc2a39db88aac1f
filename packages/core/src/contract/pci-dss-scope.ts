/**
 * The application's role toward the cardholder data environment (CDE), as your PCI DSS scoping decided it: the
 * evidence report states it, with what follows for the requirements. The value is also the `pciDssScope` context key.
 */
export enum PciDssScope {
  /** It stores, processes or transmits account data: it is in the CDE, and every applicable requirement applies to it. */
  CDE = 'CDE',
  /**
   * It is connected to the CDE or can affect its security, as a build server that deploys into it: the requirements
   * apply to it as far as that access goes, and account data must not reach it.
   */
  CONNECTED = 'CONNECTED',
  /** Segmented from the CDE: out of scope. The segmentation is yours to show (penetration tests of it, 11.4.5). */
  OUT_OF_SCOPE = 'OUT_OF_SCOPE',
}
