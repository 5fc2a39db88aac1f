/**
 * Docker Hub as an ECR pull-through cache upstream (botocore 1.44.8 ECR model, `CreatePullThroughCacheRule`:
 * `upstreamRegistryUrl` `registry-1.docker.io`, `UpstreamRegistry` `docker-hub`), and the names an image reference
 * gives it (`docker.io` is the one package URLs use). Docker Hub limits anonymous pulls per address (Docker's "Docker
 * Hub usage and limits"); Fargate keeps no image cache, so every task would pull.
 */
export const DOCKER_HUB = { url: 'registry-1.docker.io', upstream: 'docker-hub', hosts: ['docker.io', 'index.docker.io', 'registry-1.docker.io'] } as const;

/**
 * The registry part of an image reference, when it has one: a first component with a `.` or a `:`, or `localhost`
 * (the rule Docker's reference parser applies).
 */
export function registryOf(image: string): string | undefined {
  const first = image.split('/')[0];
  return image.includes('/') && (/[.:]/.test(first) || first === 'localhost') ? first : undefined;
}
