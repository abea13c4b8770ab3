import { resolveValue, TemplateResolveError, type ResolveScope } from '#localstack/cloud/template/resolve';

const scope = (overrides: Partial<ResolveScope> = {}): ResolveScope => ({
  ref: (id) => {
    if (id === 'Table') return 'main-table';
    throw new TemplateResolveError(id, 'unknown resource');
  },
  getAtt: (id, attribute) => {
    if (id === 'Table' && attribute === 'Arn') return 'arn:aws:dynamodb:us-east-1:000000000000:table/main-table';
    throw new TemplateResolveError(id, `unknown attribute ${attribute}`);
  },
  parameters: { Stage: 'prod', Unset: undefined },
  pseudo: {
    accountId: '000000000000',
    region: 'us-east-1',
    partition: 'aws',
    urlSuffix: 'amazonaws.com',
    stackName: 'Mailservice',
    stackId: 'arn:stack',
  },
  conditions: { IsProd: { 'Fn::Equals': [{ Ref: 'Stage' }, 'prod'] }, NotProd: { 'Fn::Not': [{ Condition: 'IsProd' }] } },
  ...overrides,
});

describe('the template resolver', () => {
  it('resolves the intrinsics CDK emits: Ref, GetAtt joined with an index suffix, Sub with attributes and literals, Select, Split', () => {
    const value = {
      name: { Ref: 'Table' },
      index: { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Table', 'Arn'] }, '/index/*']] },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own ${Name} syntax, as CloudFormation templates write it
      sub: { 'Fn::Sub': 'arn:${AWS::Partition}:x:${AWS::Region}:${AWS::AccountId}:${Table.Arn}/${!Literal}' },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own ${Name} syntax, as CloudFormation templates write it
      subMap: { 'Fn::Sub': ['${A}-${Table}', { A: { Ref: 'AWS::StackName' } }] },
      select: { 'Fn::Select': [1, { 'Fn::Split': ['/', 'a/b/c'] }] },
      azs: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] },
    };
    expect(resolveValue(value, scope())).toEqual({
      name: 'main-table',
      index: 'arn:aws:dynamodb:us-east-1:000000000000:table/main-table/index/*',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${!Literal} resolves to the literal text ${Literal}
      sub: 'arn:aws:x:us-east-1:000000000000:arn:aws:dynamodb:us-east-1:000000000000:table/main-table/${Literal}',
      subMap: 'Mailservice-main-table',
      select: 'b',
      azs: 'us-east-1a',
    });
  });

  it('evaluates Fn::If on the Conditions and drops AWS::NoValue from objects and lists', () => {
    const value = {
      a: { 'Fn::If': ['IsProd', 'yes', 'no'] },
      b: { 'Fn::If': ['NotProd', 'x', { Ref: 'AWS::NoValue' }] },
      list: [1, { Ref: 'AWS::NoValue' }, 2],
    };
    expect(resolveValue(value, scope())).toEqual({ a: 'yes', list: [1, 2] });
  });

  it('refuses what it does not know, with the path of the value, instead of passing a wrong string on', () => {
    expect(() => resolveValue({ x: { 'Fn::ImportValue': 'shared' } }, scope(), 'Resources/F/Properties')).toThrow(
      'Resources/F/Properties/x/Fn::ImportValue: the local cloud does not resolve Fn::ImportValue',
    );
    expect(() => resolveValue({ 'Fn::GetAtt': ['Table', 'StreamArn'] }, scope())).toThrow(/unknown attribute StreamArn/);
    expect(() => resolveValue({ Ref: 'Missing' }, scope())).toThrow(/unknown resource/);
    expect(() => resolveValue({ Ref: 'Unset' }, scope())).toThrow(/parameter Unset has no value/);
    expect(() => resolveValue({ Ref: 'AWS::Unknown' }, scope())).toThrow(/unknown pseudo parameter/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own ${Name} syntax, as CloudFormation templates write it
    expect(() => resolveValue({ 'Fn::Sub': '${Table.Nope}' }, scope())).toThrow(/unknown attribute Nope/);
    expect(() => resolveValue({ 'Fn::Join': ['', [{ a: 1 }]] }, scope())).toThrow(/must resolve to a string/);
    expect(() => resolveValue({ 'Fn::Select': [5, ['a']] }, scope())).toThrow(/outside a list of 1/);
    expect(() => resolveValue({ 'Fn::If': ['Nope', 1, 2] }, scope())).toThrow(/unknown condition/);
  });
});
