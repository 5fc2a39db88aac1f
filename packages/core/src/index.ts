// The plugin contract: what a plugin implements and what the framework hands it.
export { IApplicationSpec, ApplicationSpec } from './contract/application-spec';
export { IOidcIntegration, OidcProviderSettings, Ec2Files } from './contract/oidc-integration';
export { IUserDataBuilder } from './contract/user-data-builder';
export { ContainerCommand } from './contract/container-command';
export { ContainerInitialization, ContainerFiles } from './contract/container-initialization';
export { LogAlarm } from './contract/log-alarm';
export { EgressRule } from './contract/egress-rule';
export { ApplicationSize } from './contract/application-size';
export { PluginSetting } from './contract/plugin-setting';
export { KnownVulnerability } from './contract/known-vulnerability';
export { SoftwareComponent, SoftwareComponentType } from './contract/software-component';
export { BlockedRequest, BLOCKED_PATH_PATTERN_MAX, BLOCKED_REQUESTS_MAX } from './contract/blocked-request';
export { DefaultCredential } from './contract/default-credential';
export { ConnectionSource, OutboundConnection, OUTBOUND_CONNECTION_TEXT_MAX, OUTBOUND_CONNECTIONS_MAX } from './contract/outbound-connection';
export { RequestBodyLimit, WAF_BODY_SIZE_LIMIT, REQUEST_BODY_MAX_BYTES, REQUEST_BODY_PATH_MAX_BYTES, REQUEST_BODY_LIMITS_MAX } from './contract/request-body-limit';
export { EphemeralWorkers, WorkerVariables } from './contract/ephemeral-workers';
export { Ec2Context, EfsIds, Ec2Contexts } from './contract/ec2-context';
export { PosixIds, PosixUser } from './contract/posix-user';
export { ServiceHardening } from './contract/service-hardening';
export { RuntimeType } from './contract/runtime-type';
export { SecurityProfile } from './contract/security-profile';
export { AuthMode } from './contract/auth-mode';
export { PluginContract } from './contract/plugin-contract';
export { Ec2Storage } from './contract/ec2-storage';
export { DeploymentStrategy, DESIRED_COUNT_MAX } from './contract/deployment-strategy';

// PRODUCTION's compliance checks: acknowledging a finding on one's own resource; a plugin's own controls.
export { Compliance } from './compliance/compliance';
export { ComplianceControl, ControlGrade } from './contract/compliance-control';
export { PciDssScope } from './contract/pci-dss-scope';
export { DatabaseEngine, DatabaseEnvironment, DatabaseRequirement } from './contract/database-requirement';

// The framework's user-data builder (EC2).
export { BashUserDataBuilder } from './userdata/bash-user-data-builder';
export { Shell } from './userdata/shell';

// Deployment context keys -> validated DeploymentContext.
export { DeploymentContext } from './context/deployment-context';
export { DeploymentContextReader } from './context/deployment-context-reader';

// Plugin discovery from registration manifests.
export { PluginRegistry, PluginRegistryOptions, PluginRegistration } from './registry/plugin-registry';

// The platform several applications share: network, load balancer, cluster, file system, keys, alarm topic.
export { Platform } from './platform/platform';
export { PlatformProps } from './context/platform-props';
export { PlatformContext } from './context/platform-context';

// The factory: one plugin, one runtime, on a platform or with infrastructure of its own.
export { ApplicationFactory } from './application-factory';
export { ApplicationFactoryProps } from './application-factory-props';
export { AcceptedAdvisory } from './context/accepted-advisory';
export { FactorySettings } from './context/factory-settings';
export { AllowFrom } from './context/allow-from';
export { ExistingSubnet, ExistingVpc } from './context/existing-vpc';

// The deployment app: context keys -> stack (what `cdk synth -c ...` runs).
export { DeploymentApp, DeploymentAppOptions } from './deployment-app';
export { UserErrors, DEBUG_VARIABLE } from './user-errors';

// The built-in plugin: the hardened Jenkins build server.
export { JenkinsSpec, JenkinsSpecProps } from './build-server/jenkins-spec';
export { PipelineLibrarySource } from './build-server/jenkins-configuration';
export { SonarQubeServer } from './build-server/jenkins-sonarqube';
export { ContainerImageProps, ContainerImageSpec } from './container-image/container-image-spec';
