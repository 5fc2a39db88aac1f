import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * What the services refuse, or do to data, that CloudFormation's resource schemas do not say: each rule rests on a
 * sentence of the service's own API model (aws/lifecycle/service-rules.json, from botocore 1.44.8) and says the way
 * through. lifecycle-check.ts runs them on every transition, after it knows what the transition replaces.
 */
export const SERVICE_SOURCES: Record<string, { readonly where: string; readonly quote: string }> =
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'aws', 'lifecycle', 'service-rules.json'), 'utf-8'));

/** Every stack's template by stack name. */
type State = Record<string, any>;

export interface ServiceRule {
  /** The key of its source in aws/lifecycle/service-rules.json. */
  readonly source: string;
  /** What the user does instead. */
  readonly wayThrough: string;
  /**
   * The resources the transition breaks the rule on, each with what happens, knowing what it replaces (`stack/id`) and
   * the platform parameters whose value it replaces (their names).
   */
  readonly check: (before: State, after: State, replaced: ReadonlySet<string>, replacedParameters: ReadonlySet<string>) =>
  Array<{ readonly stack: string; readonly logicalId: string; readonly detail: string }>;
}

const resources = (state: State, type: string): Array<[string, string, any]> => Object.entries(state)
  .flatMap(([stack, t]) => Object.entries<any>(t.Resources ?? {}).filter(([, r]) => r.Type === type)
    .map(([id, r]) => [stack, id, r] as [string, string, any]));
const text = (v: unknown) => JSON.stringify(v);
const refTo = (v: any): string | undefined => v?.Ref ?? v?.['Fn::GetAtt']?.[0];

export const SERVICE_RULES: Record<string, ServiceRule> = {
  // A new or replacing mount target is created while the file system's old ones still stand (CloudFormation creates
  // before it deletes), in the same zones, or in another VPC: EFS refuses it (MountTargetConflict).
  'efs-one-mount-target-a-zone': {
    source: 'efsOneMountTargetAZone',
    wayThrough: 'the file system keeps its mount targets only while the compute subnets stay: deploy the change as a new ' +
      'platform or application (new stack names), its data restored from the file system\'s backup (docs/data-and-restore.md), ' +
      'or keep the compute subnets as they are',
    check: (before, after, replaced) => resources(after, 'AWS::EFS::MountTarget').filter(([stack, id, target]) => {
      const old = before[stack]?.Resources?.[id];
      const isNew = !old || replaced.has(`${stack}/${id}`);
      const fileSystem = text(target.Properties.FileSystemId);
      const standing = resources(before, 'AWS::EFS::MountTarget').some(([s, i, t]) => s === stack && text(t.Properties.FileSystemId) === fileSystem &&
        (replaced.has(`${s}/${i}`) || !after[s]?.Resources?.[i]));
      const fileSystemNew = refTo(target.Properties.FileSystemId) !== undefined &&
        (replaced.has(`${stack}/${refTo(target.Properties.FileSystemId)}`) || !before[stack]?.Resources?.[refTo(target.Properties.FileSystemId)!]);
      return isNew && standing && !fileSystemNew;
    }).map(([stack, id]) => ({ stack, logicalId: id, detail: 'a mount target is created while the file system\'s old one stands in its zone' })),
  },
  // The subnet group is updated in place (its subnets are not create-only) under a database that keeps running in a
  // subnet the update drops: ModifyDBSubnetGroup refuses it.
  'rds-subnet-in-use': {
    source: 'rdsSubnetInUse',
    wayThrough: 'a database does not move subnets in place: snapshot it, deploy the new subnets with the database removed, ' +
      'then add it back restored from the snapshot (docs/data-and-restore.md, "Restore the database")',
    check: (before, after, replaced, replacedParameters) => resources(after, 'AWS::RDS::DBSubnetGroup').filter(([stack, id, group]) => {
      const old = before[stack]?.Resources?.[id];
      if (!old || replaced.has(`${stack}/${id}`)) return false;
      const subnets = (g: any) => (g.Properties.SubnetIds as unknown[]).map(text);
      const dropped = subnets(old).some((s) => !subnets(group).includes(s));
      // On a platform the subnets are its parameters' values, which a change of the platform replaces.
      const changedUnder = (group.Properties.SubnetIds as unknown[]).some((s) => replacedParameters.has(after[stack].Parameters?.[refTo(s) ?? '']?.Default));
      const inUse = resources(after, 'AWS::RDS::DBInstance').some(([s, i, db]) => s === stack && refTo(db.Properties.DBSubnetGroupName) === id &&
        before[s]?.Resources?.[i] && !replaced.has(`${s}/${i}`));
      return (dropped || changedUnder) && inUse;
    }).map(([stack, id]) => ({ stack, logicalId: id, detail: 'the database\'s subnet group drops a subnet the running database is in' })),
  },
  // A database removed from a stack that keeps running: CloudFormation's delete fails on its deletion protection, and
  // the instance is left behind, holding its identifier.
  'rds-deletion-protection': {
    source: 'rdsDeletionProtection',
    wayThrough: 'turn its deletion protection off first (aws rds modify-db-instance with --no-deletion-protection), then ' +
      'deploy; its final snapshot is taken',
    check: (before, after) => resources(before, 'AWS::RDS::DBInstance')
      .filter(([stack, id, db]) => after[stack] && !after[stack].Resources?.[id] && db.Properties.DeletionProtection === true && db.DeletionPolicy !== 'Retain')
      .map(([stack, id]) => ({ stack, logicalId: id, detail: 'a database with deletion protection is removed' })),
  },
  // A volume's zone changes in place: the schema has no create-only property, and EC2 cannot move a volume.
  'ebs-volume-zone': {
    source: 'ebsVolumeZone',
    wayThrough: 'snapshot the volume, then deploy with dataVolumeSnapshotId to create it in the new zone (docs/data-and-restore.md, "Restore EBS")',
    check: (before, after) => resources(after, 'AWS::EC2::Volume').filter(([stack, id, volume]) => {
      const old = before[stack]?.Resources?.[id];
      return old && text(old.Properties.AvailabilityZone) !== text(volume.Properties.AvailabilityZone);
    }).map(([stack, id]) => ({ stack, logicalId: id, detail: 'the data volume\'s zone changes' })),
  },
  // An access point replaced (its user or path is create-only): at the same path the directory exists, and EFS
  // applies the new owner only to a directory it creates; at another path the directory is new and empty.
  'efs-access-point-owner': {
    source: 'efsAccessPointCreationInfo',
    wayThrough: 'keep the application\'s applicationId and user; to change the user, give the files to the new uid first ' +
      '(a task as the old user, chown), or move the data to the new path',
    check: (before, after, replaced) => resources(after, 'AWS::EFS::AccessPoint')
      .filter(([stack, id]) => before[stack]?.Resources?.[id] && replaced.has(`${stack}/${id}`))
      .map(([stack, id, point]) => {
        const samePath = text(before[stack].Resources[id].Properties.RootDirectory?.Path) === text(point.Properties.RootDirectory?.Path);
        const detail = samePath ? 'the data directory keeps its old owner: the new user cannot write it'
          : 'the access point moves to a new, empty directory: the data stays at the old path';
        return { stack, logicalId: id, detail };
      }),
  },
};
