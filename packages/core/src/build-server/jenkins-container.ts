import type { ControllerFiles, ControllerLayout } from './controller-files';
import { FILES } from './controller-files';
import { PLUGIN_TOOL_FLAGS } from './versions';
import { ContainerFiles, type ContainerInitialization } from '../contract/container-initialization';

const HOME = '/var/jenkins_home';

/** Fargate: the official image's home, the delivered files in the framework's directory, the audit trail on stdout too. */
export const CONTAINER_LAYOUT: ControllerLayout = {
  configDir: ContainerFiles.DIRECTORY,
  home: HOME,
  auditLogPattern: `${HOME}/logs/audit-%g.log`,
  auditToConsole: true,
};

/**
 * What the init container prepares: the controller's files, mask-passwords' configuration in the home, and the pinned
 * plugins, installed by the image's own `jenkins-plugin-cli`.
 */
export function jenkinsContainerInitialization(files: ControllerFiles): ContainerInitialization {
  const dir = CONTAINER_LAYOUT.configDir;
  return {
    files: { ...files.config, [files.maskPasswords.fileName]: files.maskPasswords.content },
    commands: [
      `mkdir -p ${HOME}/logs ${HOME}/plugins`,
      `cp ${dir}/${files.maskPasswords.fileName} ${HOME}/${files.maskPasswords.fileName}`,
      `jenkins-plugin-cli --plugin-file ${dir}/${FILES.plugins} --plugin-download-directory ${HOME}/plugins ${PLUGIN_TOOL_FLAGS.join(' ')}`,
    ],
  };
}
