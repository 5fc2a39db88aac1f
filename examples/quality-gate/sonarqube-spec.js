// SonarQube as a plugin, in plain JavaScript so that `npx cdk synth` needs no build step here. Its database is
// declared, not built: the framework provides PostgreSQL and hands SonarQube the connection (docs/writing-a-plugin.md,
// "A database").
const { ApplicationSpec } = require('@fw/core');

/**
 * The official image's Community Build, as docker-library/official-images lists it (library/sonarqube at 37079fb,
 * 2026-08-21). Pin its digest with the imageDigests key before deploying PRODUCTION.
 */
const IMAGE = 'sonarqube:26.8.0.126808-community';

class SonarQubeSpec extends ApplicationSpec {
  applicationId() { return 'sonarqube'; }
  defaultContainerImage() { return IMAGE; }
  applicationPort() { return 9000; }
  containerDataPath() { return '/opt/sonarqube/data'; }
  efsDataPath() { return '/sonarqube'; }
  volumeName() { return 'sonarqube-data'; }
  // The image's own user: uid 1000 in root's group, as its files are owned.
  containerUser() { return '1000:0'; }
  efsPermissions() { return '750'; }
  ebsDeviceName() { return '/dev/xvdf'; }
  ec2DataPath() { return '/var/lib/sonarqube'; }
  ec2LogPaths() { return ['/var/log/sonarqube/sonar.log']; }
  healthCheckPath() { return '/api/system/status'; }
  defaultSize() { return { cpu: 2048, memoryLimitMiB: 4096 }; }

  containerEnvironmentVariables() {
    return {
      // Fargate cannot raise vm.max_map_count: the embedded Elasticsearch runs without memory-mapped files.
      SONAR_SEARCH_JAVAADDITIONALOPTS: '-Dnode.store.allow_mmap=false',
      SONAR_ES_BOOTSTRAP_CHECKS_DISABLE: 'true',
    };
  }

  database() {
    return {
      engine: 'postgres',
      majorVersion: '16',
      databaseName: 'sonarqube',
      environment: {
        url: 'SONAR_JDBC_URL',
        urlFormat: 'jdbc:postgresql://{host}:{port}/{name}?sslmode=require',
        user: 'SONAR_JDBC_USERNAME',
        password: 'SONAR_JDBC_PASSWORD',
      },
    };
  }

  configureUserData() {
    throw new Error('SonarQubeSpec: this example runs on FARGATE only (the official image); set runtimeType FARGATE.');
  }
}

module.exports = { SonarQubeSpec };
