import type { IConstruct } from 'constructs';
import { acknowledge, MIN_REASON_LENGTH } from '../profiles/compliance';

/** The compliance checks a PRODUCTION stack runs, for resources a user adds beside the framework's. */
export class Compliance {
  /** The shortest reason `acknowledge` accepts: a sentence an assessor can weigh, not a word. */
  public static readonly MIN_REASON_LENGTH = MIN_REASON_LENGTH;

  /**
   * Accepts a finding of the PRODUCTION packs on one resource, with the reason it is acceptable: the mechanism the
   * framework uses for its own resources. PRODUCTION checks the whole stack, so a resource added beside an
   * `ApplicationFactory` (a database, a bucket) is checked too; its acknowledgements appear, with their reasons, in
   * the template's metadata and in the PCI DSS evidence report.
   *
   * @param resource the resource with the finding: a CfnResource, or an L2 construct whose default child is one.
   *   Not a stack or an app, whose acknowledgement would cover every resource in it.
   * @param rule a rule name, acknowledged in every pack that has it (`IAMNoInlinePolicy`), or one pack's id
   *   (`AwsSolutions-IAM4`, `PCI.DSS.401-S3BucketDefaultLockEnabled`).
   * @param reason why the finding is acceptable, at least `MIN_REASON_LENGTH` characters: it is what an assessor reads.
   */
  public static acknowledge(resource: IConstruct, rule: string, reason: string): void {
    acknowledge(resource, rule, reason);
  }

  private constructor() {}
}
