import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuthMode, ContainerImageSpec, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { OIDC, only, propsFor, resources, synth } from './support/synth';
import { AGENT_IMAGE, JENKINS_IMAGE } from '../src/build-server/versions';
import { DIGEST_CHECK_HANDLER } from '../src/infrastructure/image-digest-check';

// Fargate: before the service changes, the pull-through cache serves the pinned digest for the image's tag
// (src/infrastructure/image-digest-check.ts); the EC2 boot's own comparison is in ec2-image.test.ts.

const NGINX = { applicationId: 'web', image: 'nginx:1.27.3', port: 8080, user: '101:101', dataPath: '/data' };
const DIGEST = `sha256:${'4'.repeat(64)}`;
const production = synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.PRODUCTION), imageDigests: { [NGINX.image]: DIGEST } },
  new ContainerImageSpec(NGINX)).json;

test('a check of the pinned digest, by the cache\'s repository and the tag, which the service waits for', () => {
  const [[checkId, check]] = resources(production, 'Custom::ImageDigest');
  expect(check.Properties).toMatchObject({
    Image: 'nginx:1.27.3', Repository: expect.stringMatching(/^fw-hub-[0-9a-f]{8}\/library\/nginx$/), Tag: '1.27.3', Digest: DIGEST,
  });
  expect(only(production, 'AWS::ECS::Service').DependsOn).toContain(checkId);
});

test('its function may ask the cache\'s repositories only, as a task\'s pull may', () => {
  const statements = resources(production, 'AWS::IAM::Policy').map(([, p]) => p.Properties)
    .filter((p) => JSON.stringify(p.Roles).includes('ImageDigestsRole')).flatMap((p) => p.PolicyDocument.Statement);
  expect(statements.find((s: any) => [s.Action].flat().includes('ecr:BatchGetImage')).Resource['Fn::Join'][1].join(''))
    .toMatch(/:repository\/fw-hub-[0-9a-f]{8}\/\*$/);
});

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('the build server on %s, whose agents are tasks too', (runtime) => {
  const json = synth(runtime, { ...propsFor(SecurityProfile.PRODUCTION), authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC }, new JenkinsSpec()).json;
  const checks = resources(json, 'Custom::ImageDigest');

  test('each image a task pulls is checked, with one function; on EC2 the boot checks the controller\'s own', () => {
    expect(checks.map(([, c]) => c.Properties.Image)).toEqual(runtime === RuntimeType.FARGATE ? [JENKINS_IMAGE, AGENT_IMAGE] : [AGENT_IMAGE]);
    expect(new Set(checks.map(([, c]) => JSON.stringify(c.Properties.ServiceToken))).size).toBe(1);
  });

  test('the application waits for them', () => {
    const application = only(json, runtime === RuntimeType.FARGATE ? 'AWS::ECS::Service' : 'AWS::AutoScaling::AutoScalingGroup');
    for (const [id] of checks) expect(application.DependsOn).toContain(id);
  });
});

test('nothing to check for an image not pulled through the cache (DEV without a cache)', () => {
  expect(resources(synth(RuntimeType.FARGATE, {}, new ContainerImageSpec(NGINX)).json, 'Custom::ImageDigest')).toEqual([]);
});

/** The handler run by Python against stand-ins of boto3 and cfnresponse: what it answers CloudFormation. */
function answer(served: string[], requestType = 'Create'): { status: string; reason?: string; calls: string[] } {
  const script = `
import sys, types, json
calls, sent = [], {}
class Ecr:
    def batch_get_image(self, **kw):
        calls.append("ecr.batch_get_image " + kw["repositoryName"] + " " + json.dumps(kw["imageIds"]))
        return {"images": [{"imageId": {"imageDigest": d}} for d in json.loads(sys.argv[2])], "failures": []}
sys.modules["boto3"] = types.SimpleNamespace(client=lambda name: Ecr())
def send(event, context, status, data, physical=None, noEcho=False, reason=None):
    sent.update(status=status, reason=reason)
sys.modules["cfnresponse"] = types.SimpleNamespace(SUCCESS="SUCCESS", FAILED="FAILED", send=send)
ns = {}
exec(open(sys.argv[1]).read(), ns)
props = {"Image": "nginx:1.27.3", "Repository": "fw-hub-1/library/nginx", "Tag": "1.27.3", "Digest": "${DIGEST}"}
ns["handler"]({"RequestType": sys.argv[3], "ResourceProperties": props}, None)
print(json.dumps(dict(sent, calls=calls)))
`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-digest-'));
  fs.writeFileSync(path.join(dir, 'index.py'), DIGEST_CHECK_HANDLER);
  fs.writeFileSync(path.join(dir, 'run.py'), script);
  const run = spawnSync('python3', [path.join(dir, 'run.py'), path.join(dir, 'index.py'), JSON.stringify(served), requestType], { encoding: 'utf-8' });
  fs.rmSync(dir, { recursive: true, force: true });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
}

test('the handler: the pin served passes; another digest fails the deployment, naming the image and both digests', () => {
  expect(answer([DIGEST])).toEqual({ status: 'SUCCESS', reason: null, calls: ['ecr.batch_get_image fw-hub-1/library/nginx [{"imageTag": "1.27.3"}]'] });
  const other = `sha256:${'9'.repeat(64)}`;
  const refused = answer([other]);
  expect(refused.status).toBe('FAILED');
  expect(refused.reason).toBe(`the cache serves nginx:1.27.3 (fw-hub-1/library/nginx:1.27.3 in the cache) as ${other}, but the pin (imageDigests) is ${DIGEST}: ` +
    'update the pin, or find why the tag moved');
  expect(answer([], 'Delete')).toEqual({ status: 'SUCCESS', reason: null, calls: [] });
});
