/** A synthesised CloudFormation template, as much of it as the diagrams read. */
export interface CfnTemplate {
  readonly Resources?: Record<string, CfnResourceJson>;
  readonly Parameters?: Record<string, { readonly Type: string; readonly Default?: string }>;
}

export interface CfnResourceJson {
  readonly Type: string;
  readonly Properties?: Record<string, any>;
}

/** One stack's template, by its stack name. */
export interface NamedTemplate {
  readonly stack: string;
  readonly template: CfnTemplate;
}

/** A resource of one of the drawn stacks, `<stack>/<logical id>`, or what a stack reads from outside them, `ssm:<name>`. */
export type Ref = string;

/** One resource, with the stack it is in and its key. */
export interface Located {
  readonly key: Ref;
  readonly stack: string;
  readonly logicalId: string;
  readonly resource: CfnResourceJson;
}

/**
 * Several stacks' templates read together: a reference in one stack is followed to the resource it names, in the same
 * stack (`Ref`, `Fn::GetAtt`) or in another drawn stack that publishes it as an SSM parameter, which an application on
 * a platform reads as a template parameter of type `AWS::SSM::Parameter::Value<…>` (platform/platform-parameters.ts).
 */
export class Templates {
  private readonly byStack: Map<string, CfnTemplate>;
  /** Each SSM parameter a drawn stack writes, by name: the value's expression and its stack. */
  private readonly published = new Map<string, { stack: string; value: unknown }>();

  constructor(readonly stacks: readonly NamedTemplate[]) {
    this.byStack = new Map(stacks.map((s) => [s.stack, s.template]));
    for (const r of this.all('AWS::SSM::Parameter')) {
      const name = r.resource.Properties?.Name;
      if (typeof name === 'string') this.published.set(name, { stack: r.stack, value: r.resource.Properties?.Value });
    }
  }

  /** Every resource of the drawn stacks, of one type when given, in template order. */
  all(type?: string): Located[] {
    return this.stacks.flatMap(({ stack, template }) => Object.entries(template.Resources ?? {})
      .filter(([, resource]) => !type || resource.Type === type)
      .map(([logicalId, resource]) => ({ key: `${stack}/${logicalId}`, stack, logicalId, resource })));
  }

  get(key: Ref): Located | undefined {
    const at = key.indexOf('/');
    if (key.startsWith('ssm:') || at < 0) return undefined;
    const stack = key.slice(0, at);
    const logicalId = key.slice(at + 1);
    const resource = this.byStack.get(stack)?.Resources?.[logicalId];
    return resource && { key, stack, logicalId, resource };
  }

  /** The resource an expression in `stack` names, or `ssm:<name>` for a parameter no drawn stack publishes. */
  resolve(stack: string, expression: unknown): Ref | undefined {
    if (!expression || typeof expression !== 'object') return undefined;
    const e = expression as Record<string, any>;
    const name: unknown = e.Ref ?? (Array.isArray(e['Fn::GetAtt']) ? e['Fn::GetAtt'][0] : undefined);
    if (typeof name !== 'string') return undefined;
    const template = this.byStack.get(stack);
    if (template?.Resources?.[name]) return `${stack}/${name}`;
    const parameter = template?.Parameters?.[name];
    if (!parameter?.Type.startsWith('AWS::SSM::Parameter::Value<') || !parameter.Default) return undefined;
    const published = this.published.get(parameter.Default);
    return published ? this.resolve(published.stack, published.value) : `ssm:${parameter.Default}`;
  }

  /** `resolve` over a list (a property such as `SecurityGroups`), dropping what names nothing. */
  resolveAll(stack: string, expressions: unknown): Ref[] {
    return (Array.isArray(expressions) ? expressions : []).map((e) => this.resolve(stack, e)).filter((r): r is Ref => !!r);
  }
}
