import { aws_iam as iam, aws_lambda as lambda, type aws_logs as logs, CustomResource, Duration } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { ImageSource } from './docker-hub-cache';
import { acknowledge } from '../compliance/acknowledge';

/**
 * The custom resource's function: asks the pull-through cache for the image by its tag (ECR's `BatchGetImage`, the
 * manifest request of a pull, which the cache answers by importing the image from upstream on a first request; one by
 * digest alone it may not import: aws/containers-roadmap#2837) and fails the deployment, naming the image and both
 * digests, unless the cache serves the pinned digest for that tag. A deletion checks nothing. (image-digest-check.test.ts
 * runs it against a stand-in boto3 and cfnresponse.)
 */
export const DIGEST_CHECK_HANDLER = `import boto3, cfnresponse
MEDIA_TYPES = ["application/vnd.oci.image.index.v1+json", "application/vnd.docker.distribution.manifest.list.v2+json",
               "application/vnd.oci.image.manifest.v1+json", "application/vnd.docker.distribution.manifest.v2+json"]
def handler(event, context):
    props = event["ResourceProperties"]
    image = props["Image"] + " (" + props["Repository"] + ":" + props["Tag"] + " in the cache)"
    if event["RequestType"] == "Delete":
        cfnresponse.send(event, context, cfnresponse.SUCCESS, {}, event.get("PhysicalResourceId"))
        return
    try:
        answer = boto3.client("ecr").batch_get_image(repositoryName=props["Repository"], imageIds=[{"imageTag": props["Tag"]}],
                                                    acceptedMediaTypes=MEDIA_TYPES)
        served = [i["imageId"]["imageDigest"] for i in answer.get("images", [])]
        failures = [f.get("failureCode", "") + " " + f.get("failureReason", "") for f in answer.get("failures", [])]
    except Exception as e:
        served, failures = [], [str(e)]
    if props["Digest"] in served:
        print("checked: " + image + " is " + props["Digest"])
        cfnresponse.send(event, context, cfnresponse.SUCCESS, {}, props["Repository"] + ":" + props["Tag"])
        return
    found = ", ".join(served) or "nothing (" + "; ".join(failures) + ")"
    reason = "the cache serves " + image + " as " + found + ", but the pin (imageDigests) is " + props["Digest"] + ": update the pin, or find why the tag moved"
    print(reason)
    cfnresponse.send(event, context, cfnresponse.FAILED, {}, props["Repository"] + ":" + props["Tag"], reason=reason)
`;

export interface ImageDigestCheckProps {
  /** The images as the plugin names them: those not pulled through the cache by digest are left out. */
  readonly images: string[];
  /** Where it is pulled from: the cache, with its pin. */
  readonly source: ImageSource;
  /** Where the function logs: the application's log group. */
  readonly logGroup: logs.ILogGroup;
}

/**
 * Before the application changes, each pinned digest is what the pull-through cache serves for its image's tag (a
 * custom resource an image, one function for all, which the application depends on; re-run whenever a pin changes).
 * Nothing for an image not pulled through the cache by digest.
 */
export class ImageDigestCheck extends Construct {
  /** The checks, one an image pulled through the cache by digest. */
  public readonly resources: CustomResource[];

  constructor(scope: Construct, id: string, props: ImageDigestCheckProps) {
    super(scope, id);
    const pinned = [...new Set(props.images)].flatMap((image) => {
      const parts = props.source.pinnedInCache(image);
      return parts ? [{ image, ...parts }] : [];
    });
    if (pinned.length === 0) {
      this.resources = [];
      return;
    }
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Checks that the pull-through cache serves the pinned digest of the application\'s image',
    });
    const pulls = props.source.grantPulls(this, pinned[0].image, role)!;
    const fn = new lambda.Function(this, 'Function', {
      runtime: lambda.Runtime.PYTHON_3_14,
      handler: 'index.handler',
      code: lambda.Code.fromInline(DIGEST_CHECK_HANDLER),
      role,
      timeout: Duration.seconds(60),
      logGroup: props.logGroup,
      description: 'Checks the pinned digest of the application\'s image against the pull-through cache',
    });
    fn.node.addDependency(pulls);
    props.logGroup.grantWrite(role);
    this.resources = pinned.map(({ image, repository, tag, digest }, i) => new CustomResource(this, `Check${i}`, {
      serviceToken: fn.functionArn,
      resourceType: 'Custom::ImageDigest',
      properties: { Image: image, Repository: repository, Tag: tag, Digest: digest },
    }));
    acknowledge(fn, 'LambdaInsideVPC', 'It calls ECR\'s API during deployments and handles no data; outside the VPC it ' +
      'needs no network path of its own.');
    acknowledge(fn, 'LambdaConcurrency', 'CloudFormation invokes it during deployments only, once per change of the pin.');
    acknowledge(fn, 'LambdaDLQ', 'CloudFormation is its only caller: a failed check fails the deployment, which ' +
      'CloudFormation reports and rolls back; a dead-letter queue would hold only a copy of that request.');
  }
}
