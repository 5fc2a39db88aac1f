import { RuntimeType } from '../contract/runtime-type';
import { shownValue, UserError } from '../errors';

/** The factory's size props (and context keys), with the limits AWS applies to them. */
export interface FactorySizes {
  /** Fargate task CPU units. */
  readonly cpu?: number;
  /** Fargate task memory in MiB. */
  readonly memoryLimitMiB?: number;
  /** EC2 instance type. */
  readonly instanceType?: string;
  /** EBS data volume size in GiB. */
  readonly dataVolumeGiB?: number;
}

/** The factory's defaults for these props (as `ApplicationFactoryProps` documents them). */
export const FACTORY_SIZE_DEFAULTS = { cpu: 1024, memoryLimitMiB: 2048, instanceType: 't3.medium', dataVolumeGiB: 50 } as const;

/** from, from + step, ..., to. */
const steps = (from: number, to: number, step: number) =>
  Array.from({ length: (to - from) / step + 1 }, (_, i) => from + i * step);

/**
 * The task sizes Fargate runs (Linux): task CPU units -> the memory values (MiB) allowed with them.
 * @see https://docs.aws.amazon.com/AmazonECS/latest/developerguide/task-cpu-memory-error.html
 * @see https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_RegisterTaskDefinition.html (cpu, memory)
 */
const FARGATE_SIZES: ReadonlyArray<{ cpu: number; memory: readonly number[]; text: string }> = [
  { cpu: 256, memory: [512, 1024, 2048], text: '512, 1024 or 2048' },
  { cpu: 512, memory: steps(1024, 4096, 1024), text: '1024 to 4096 in steps of 1024' },
  { cpu: 1024, memory: steps(2048, 8192, 1024), text: '2048 to 8192 in steps of 1024' },
  { cpu: 2048, memory: steps(4096, 16384, 1024), text: '4096 to 16384 in steps of 1024' },
  { cpu: 4096, memory: steps(8192, 30720, 1024), text: '8192 to 30720 in steps of 1024' },
  { cpu: 8192, memory: steps(16384, 61440, 4096), text: '16384 to 61440 in steps of 4096' },
  { cpu: 16384, memory: steps(32768, 122880, 8192), text: '32768 to 122880 in steps of 8192' },
];

/** The smallest Fargate task size with at least `cpu` units and `memory` MiB, or undefined when none is that large. */
export function fargateSizeAtLeast(cpu: number, memory: number): { readonly cpu: number; readonly memoryLimitMiB: number } | undefined {
  for (const size of FARGATE_SIZES.filter((s) => s.cpu >= cpu)) {
    const memoryLimitMiB = size.memory.find((m) => m >= memory);
    if (memoryLimitMiB !== undefined) return { cpu: size.cpu, memoryLimitMiB };
  }
  return undefined;
}

/**
 * What is wrong with a Fargate task size, or undefined when Fargate runs it; `names` are the settings as the user
 * knows them.
 */
export function fargateSizeProblem(cpu: number, memory: number, names: { readonly cpu: string; readonly memory: string }): string | undefined {
  const size = FARGATE_SIZES.find((s) => s.cpu === cpu);
  if (!size) {
    return `${names.cpu} ${shownValue(cpu)} is not a Fargate task size; allowed: ${FARGATE_SIZES.map((s) => s.cpu).join(', ')} CPU units.`;
  }
  return size.memory.includes(memory)
    ? undefined
    : `${names.memory} ${shownValue(memory)} does not go with ${names.cpu} ${cpu} on Fargate; allowed: ${size.text} MiB.`;
}

/**
 * gp3 volume size in GiB.
 * @see https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateVolume.html (Size: gp2 and gp3 1-16,384)
 */
const GP3_GIB = { min: 1, max: 16384 } as const;

/**
 * An EC2 instance type name, `<family><generation><options>.<size>` such as t3.medium, m7i-flex.large or
 * u-6tb1.112xlarge.
 * @see https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html
 */
const INSTANCE_TYPE = /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/;

/**
 * Graviton (Arm) types: family `a`, or a `g` among the options after the generation (t4g, m7g, c7gn, r8gd). The
 * launch template's Amazon Linux 2023 image is the x86_64 one, and EC2 refuses to launch an image on an instance of
 * another architecture.
 * @see https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html
 */
function isArm(instanceType: string): boolean {
  const parts = /^([a-z]+)(\d{1,2})([a-z-]*)\./.exec(instanceType);
  return parts !== null && (parts[1] === 'a' || parts[3].includes('g'));
}

/** How a message names each size: the prop and key, or where else the value came from. */
export type SizeNames = { readonly [K in keyof FactorySizes]-?: string };
const PROP_NAMES: SizeNames = { cpu: 'cpu', memoryLimitMiB: 'memoryLimitMiB', instanceType: 'instanceType', dataVolumeGiB: 'dataVolumeGiB' };

/**
 * Every problem with the factory's sizes, each naming the setting, the value and the limit. Only the sizes the
 * runtime uses are checked (cpu and memory on Fargate, the instance type and volume size on EC2); absent sizes take
 * the factory's defaults, so a cpu given alone is checked against the default memory.
 */
export function factorySizeProblems(runtimeType: RuntimeType, props: FactorySizes, names: SizeNames = PROP_NAMES): string[] {
  const problems: string[] = [];
  if (runtimeType === RuntimeType.FARGATE) {
    const problem = fargateSizeProblem(props.cpu ?? FACTORY_SIZE_DEFAULTS.cpu,
      props.memoryLimitMiB ?? FACTORY_SIZE_DEFAULTS.memoryLimitMiB, { cpu: names.cpu, memory: names.memoryLimitMiB });
    if (problem) problems.push(problem);
  } else {
    const instanceType = props.instanceType;
    if (instanceType !== undefined) {
      if (typeof instanceType !== 'string' || !INSTANCE_TYPE.test(instanceType)) {
        problems.push(`${names.instanceType} ${shownValue(instanceType)} is not an EC2 instance type; allowed: a name such as ` +
          't3.medium (family and generation, a dot, the size).');
      } else if (isArm(instanceType)) {
        problems.push(`${names.instanceType} ${shownValue(instanceType)} is an Arm (Graviton) type, but the instance runs the ` +
          'x86_64 Amazon Linux 2023 image; allowed: an x86_64 type such as t3.medium or m7i.large.');
      }
    }
    const gib = props.dataVolumeGiB;
    if (gib !== undefined && (!Number.isInteger(gib) || gib < GP3_GIB.min || gib > GP3_GIB.max)) {
      problems.push(`${names.dataVolumeGiB} ${shownValue(gib)} is not a gp3 volume size; allowed: a whole number of GiB from ` +
        `${GP3_GIB.min} to ${GP3_GIB.max}.`);
    }
  }
  return problems;
}

/**
 * Fails with one error listing every problem with the factory's size props. The factory calls it before building
 * anything: `checkFactorySizes(runtimeType, props)`.
 */
export function checkFactorySizes(runtimeType: RuntimeType, props: FactorySizes, names: SizeNames = PROP_NAMES): void {
  const problems = factorySizeProblems(runtimeType, props, names);
  if (problems.length > 0) {
    throw new UserError(`Invalid ApplicationFactory props (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n` +
      problems.map((p) => `  - ${p}`).join('\n'));
  }
}

/**
 * The sizes the factory deploys: each from the props or context key (`given`), else the plugin's `defaultSize()`,
 * else `FACTORY_SIZE_DEFAULTS`; checked, with a message that names where a refused value came from.
 */
export function factorySizes(runtimeType: RuntimeType, given: FactorySizes, declared: FactorySizes, plugin: string): Required<FactorySizes> {
  const fields = Object.keys(PROP_NAMES) as Array<keyof FactorySizes>;
  const from = (field: keyof FactorySizes) => (given[field] !== undefined ? given : declared[field] !== undefined ? declared : FACTORY_SIZE_DEFAULTS);
  const sizes = Object.fromEntries(fields.map((f) => [f, from(f)[f]])) as Required<FactorySizes>;
  const names = Object.fromEntries(fields.map((f) => [f, from(f) === declared ? `${plugin}.defaultSize().${f}` : f])) as unknown as SizeNames;
  checkFactorySizes(runtimeType, sizes, names);
  return sizes;
}
