const h = () => Number(process.hrtime.bigint()) / 1e6;
for (const m of ['core','aws-iam','aws-ec2','aws-ecs','aws-elasticloadbalancingv2','aws-efs','aws-kms','aws-logs','custom-resources','aws-lambda','aws-s3','aws-cloudwatch','aws-sns','aws-route53','aws-servicediscovery','aws-secretsmanager','aws-ssm','aws-config','aws-securityhub','aws-ecr','aws-wafv2','aws-events','aws-rds','aws-backup','aws-certificatemanager','aws-route53-targets','aws-events-targets','aws-sns-subscriptions','aws-cloudwatch-actions','aws-autoscaling']) { const x = require('aws-cdk-lib/'+m); for (const k of Object.keys(x)) x[k]; }
const { App } = require('aws-cdk-lib');
const inspector = require('inspector'); const fs = require('fs');
const session = new inspector.Session(); session.connect();
const which = process.argv[2];
let build;
if (which === 'fw') { const { DeploymentApp } = require('/work/main/packages/core/lib/deployment-app'); require(process.cwd() + '/node_modules/bench-plugin'); build = (app) => DeploymentApp.addTo(app); }
else { const { HandWrittenStack } = require('/tmp/handw/hand-written-stack'); build = (app) => new HandWrittenStack(app, 'bench', { runtime: 'FARGATE', userData: '', env: { region: 'eu-west-1' } }); }
session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 100 }, () => session.post('Profiler.start', () => {
  const t = h(); const app = new App(); build(app); const t1 = h(); app.synth(); const t2 = h();
  session.post('Profiler.stop', (err, { profile }) => { fs.writeFileSync(`/tmp/prof/p3/${which}-${process.pid}.cpuprofile`, JSON.stringify(profile)); console.log(which, 'build', (t1 - t).toFixed(0), 'synth', (t2 - t1).toFixed(0)); });
})));
