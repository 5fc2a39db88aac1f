import * as path from 'path';
import { refuseExpandedSecrets } from './casc-variable';
import type { ControllerFiles, ControllerLayout } from './controller-files';
import { FILES, homeDirectories } from './controller-files';
import { pinnedPluginCommands } from './plugin-install';
import { ContainerFiles, type ContainerInitialization } from '../contract/container-initialization';

const HOME = '/var/jenkins_home';

/** Fargate: the official image's home, the delivered files in the framework's directory, the audit trail on stdout too. */
export const CONTAINER_LAYOUT: ControllerLayout = {
  configDir: ContainerFiles.DIRECTORY,
  home: HOME,
  auditLogPattern: `${HOME}/logs/audit-%g.log`,
  auditToConsole: true,
  logFile: '/dev/stdout',
};

/**
 * What the init container prepares: the controller's files, the home's (mask-passwords' configuration, the health
 * script), and exactly the pinned plugins, installed by the image's own `jenkins-plugin-cli`.
 */
export function jenkinsContainerInitialization(files: ControllerFiles, cascSecrets: readonly string[]): ContainerInitialization {
  const dir = CONTAINER_LAYOUT.configDir;
  return {
    // The secrets jenkins.yaml names as `${VAR}`, checked here because the application container has no step before Jenkins.
    secrets: [...cascSecrets],
    // The home's files travel flat beside the configuration, then go to their place in the home.
    files: { ...files.config, ...Object.fromEntries(Object.entries(files.home).map(([file, content]) => [path.posix.basename(file), content])) },
    commands: [
      ...refuseExpandedSecrets(cascSecrets),
      `mkdir -p ${['logs', 'plugins', ...homeDirectories(files)].map((sub) => `${HOME}/${sub}`).join(' ')}`,
      ...Object.keys(files.home).map((file) => `cp ${dir}/${path.posix.basename(file)} ${HOME}/${file}`),
      ...pinnedPluginCommands('jenkins-plugin-cli', `${HOME}/plugins`, `${dir}/${FILES.plugins}`),
    ],
  };
}
