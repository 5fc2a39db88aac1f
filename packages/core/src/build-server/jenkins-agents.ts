import type { EphemeralWorkers } from '../contract/ephemeral-workers';
import { WorkerVariables } from '../contract/ephemeral-workers';
import { shownValue, UserError } from '../errors';
import { ref } from './casc-variable';
import { AGENT_IMAGE } from './versions';

/**
 * The TCP port of inbound agents (JNLP4-connect, TLS). Jenkins' default is 0, a random port at every start
 * (jenkinsci/jenkins@jenkins-2.568.2, core/src/main/java/jenkins/model/Jenkins.java line 652), which no security
 * group rule could name.
 */
export const AGENT_PORT = 50000;

/** The build agents' settings: what the deployment may choose, with the defaults of `JenkinsSpecProps`. */
export interface AgentSettings {
  readonly image: string;
  readonly cpu: number;
  readonly memoryMiB: number;
  readonly maxAgents: number;
  readonly idleMinutes: number;
  readonly label: string;
}

export const AGENT_DEFAULTS: AgentSettings = {
  image: AGENT_IMAGE,
  cpu: 1024,
  memoryMiB: 2048,
  maxAgents: 5,
  idleMinutes: 5,
  label: 'fw-agent',
};

/**
 * A Jenkins label atom a pipeline can ask for with `node('<label>')`: no white space (it separates labels) and none
 * of the label-expression operators `& | ! ( ) < > = ,` and quotes.
 */
const LABEL = /^[^\s&|!()<>=,"']{1,100}$/;

/** Every problem with the agent settings, each naming the setting, the value and what is allowed. */
export function agentSettingsProblems(settings: AgentSettings): string[] {
  const problems: string[] = [];
  const wholeNumber = (name: string, value: number, min: number, max: number) => {
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} ${shownValue(value)}; allowed: a whole number from ${min} to ${max}.`);
    }
  };
  wholeNumber('maxAgents', settings.maxAgents, 1, 100);
  wholeNumber('agentIdleMinutes', settings.idleMinutes, 1, 60);
  if (typeof settings.label !== 'string' || !LABEL.test(settings.label)) {
    problems.push(`agentLabel ${shownValue(settings.label)}; allowed: one Jenkins label of at most 100 characters, ` +
      'without white space, quotes or the label-expression operators & | ! ( ) < > = ,');
  }
  return problems;
}

/** Fails with every problem of the settings; the image and the task size are checked with the plugin contract. */
export function assertValidAgentSettings(settings: AgentSettings): void {
  const problems = agentSettingsProblems(settings);
  if (problems.length > 0) throw new UserError(`Invalid JenkinsSpec agent settings:\n  - ${problems.join('\n  - ')}`);
}

/** The agents as the framework runs them: one Fargate task a build, connecting to the HTTP and the agent port. */
export function agentWorkers(settings: AgentSettings, httpPort: number): EphemeralWorkers {
  return {
    image: settings.image,
    cpu: settings.cpu,
    memoryLimitMiB: settings.memoryMiB,
    // HTTP to read the agent port and the controller's identity (tcpSlaveAgentListener/), then JNLP4 over TLS.
    applicationPorts: [httpPort, AGENT_PORT],
  };
}

/** The amazon-ecs plugin's cloud (`jenkins.clouds[].ecs`), typed after ECSCloud and ECSTaskTemplate at amazon-ecs-1.49. */
export interface EcsCloud {
  readonly ecs: {
    readonly name: string;
    /** Empty: the AWS SDK's default chain, i.e. the controller's own role (task role or instance profile). */
    readonly credentialsId: string;
    readonly cluster: string;
    readonly regionName: string;
    readonly jenkinsUrl: string;
    readonly maxAgents: number;
    readonly retentionTimeout: number;
    readonly retainAgents: boolean;
    readonly templates: ReadonlyArray<{
      readonly label: string;
      readonly taskDefinitionOverride: string;
      readonly image: string;
      readonly launchType: 'FARGATE';
      readonly platformVersion: string;
      readonly networkMode: 'awsvpc';
      readonly subnets: string;
      readonly securityGroups: string;
      readonly assignPublicIp: string;
      readonly remoteFSRoot: string;
      readonly executionRole: string;
      readonly taskrole: string;
      readonly logDriver: 'awslogs';
      readonly logDriverOptions: ReadonlyArray<{ readonly name: string; readonly value: string }>;
    }>;
  };
}

/**
 * The cloud that starts one agent a build. The agent is the stack's task definition (`taskDefinitionOverride`): the
 * plugin then registers nothing and runs that family's latest revision (ECSService.java lines 173-184 at
 * amazon-ecs-1.49), so the image, size, roles and log group are the stack's. The template repeats the roles, image
 * and log group so that the cloud's page shows what the agents run with; the plugin reads them only when it
 * registers a task definition itself, which it never does here.
 *
 * One build an agent: without `retainAgents` the plugin gives each agent OnceRetentionStrategy (ECSSlave.java lines
 * 105-107), which ends it after its build; `retentionTimeout` ends an agent no build took. No pipeline may override the
 * template (`allowedOverrides` keeps its default, none: ECSCloud.java line 489).
 */
export function agentCloud(settings: AgentSettings, httpPort: number): EcsCloud {
  return {
    ecs: {
      name: 'fargate-agents',
      credentialsId: '',
      cluster: ref(WorkerVariables.CLUSTER_ARN),
      regionName: ref(WorkerVariables.REGION),
      // The controller's private name: agents never go through the public load balancer.
      jenkinsUrl: `http://${ref(WorkerVariables.PRIVATE_HOST)}:${httpPort}/`,
      maxAgents: settings.maxAgents,
      retentionTimeout: settings.idleMinutes,
      retainAgents: false,
      templates: [{
        label: settings.label,
        taskDefinitionOverride: ref(WorkerVariables.TASK_DEFINITION),
        image: settings.image,
        launchType: 'FARGATE',
        platformVersion: 'LATEST',
        networkMode: 'awsvpc',
        subnets: ref(WorkerVariables.SUBNETS),
        securityGroups: ref(WorkerVariables.SECURITY_GROUP),
        assignPublicIp: ref(WorkerVariables.ASSIGN_PUBLIC_IP),
        // The inbound-agent image's AGENT_WORKDIR (jenkinsci/docker-agent debian/Dockerfile line 78).
        remoteFSRoot: '/home/jenkins/agent',
        executionRole: ref(WorkerVariables.EXECUTION_ROLE_ARN),
        taskrole: ref(WorkerVariables.TASK_ROLE_ARN),
        logDriver: 'awslogs',
        logDriverOptions: [
          { name: 'awslogs-group', value: ref(WorkerVariables.LOG_GROUP) },
          { name: 'awslogs-region', value: ref(WorkerVariables.REGION) },
        ],
      }],
    },
  };
}
