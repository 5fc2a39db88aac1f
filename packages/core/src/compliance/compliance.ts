import { Stack, Stage } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { SecurityProfile } from '../contract/security-profile';
import { shownValue, UserError } from '../errors';
import { acknowledge, MIN_REASON_LENGTH } from './acknowledge';
import { complianceChecks } from './compliance-checks';
import { PROFILE_SETTINGS } from '../profiles/profile-settings';

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
    acknowledge(resource, rule, reason, true);
  }

  /**
   * Puts a scope of your own (a stack with a database, a bucket, a queue) under the packs `profile` runs, exactly as
   * the framework's stacks: in PRODUCTION, synth fails on any finding not acknowledged with `Compliance.acknowledge`,
   * the acknowledgements go into the template's metadata, and the stack gets the PCI DSS evidence report beside its
   * template (`<stack>.pci-dss-4.0.1.json` and `.md`). DEV and STAGING run no packs: nothing is added. A scope that is
   * already checked (inside a PRODUCTION `ApplicationFactory`'s or `Platform`'s stack) is not checked twice.
   *
   * @param scope a stack, or a construct inside one. Not an app or a stage.
   * @param profile the profile whose packs apply: the platform's or the applications' beside it.
   */
  public static check(scope: IConstruct, profile: SecurityProfile): void {
    if (!scope?.node || Stage.isStage(scope)) {
      throw new UserError(`Compliance.check on ${scope?.node ? `the app or stage ${scope.node.path || '(the root)'}` : shownValue(scope)}: ` +
        'not allowed; give a stack or a construct inside one (an app or a stage holds stacks of different profiles).');
    }
    if (!Object.values(SecurityProfile).includes(profile)) {
      throw new UserError(`Compliance.check: profile ${shownValue(profile)} is not allowed; expected ${Object.values(SecurityProfile).join(', ')}.`);
    }
    if (!PROFILE_SETTINGS[profile].complianceChecks) return;
    complianceChecks().requireComplianceOf(scope, scope, Stack.of(scope));
  }

  private constructor() {}
}
