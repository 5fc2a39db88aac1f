/** The dependencies of a POM as jsii-pacmak 1.140 writes them for a scaffolded plugin (the rest of the POM left out). */
export const PACMAK_POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.fwframework.plugins</groupId>
  <artifactId>gitlab-plugin</artifactId>
  <version>0.0.0</version>
  <packaging>jar</packaging>
  <dependencies>
    <dependency>
      <groupId>dev.fwframework</groupId>
      <artifactId>core</artifactId>
      <version>0.1.0</version>
    </dependency>
    <dependency>
      <groupId>software.amazon.awscdk</groupId>
      <artifactId>aws-cdk-lib</artifactId>
      <version>2.263.0</version>
    </dependency>
    <dependency>
      <groupId>software.constructs</groupId>
      <artifactId>constructs</artifactId>
      <version>10.8.1</version>
    </dependency>
    <dependency>
      <groupId>software.amazon.jsii</groupId>
      <artifactId>jsii-runtime</artifactId>
      <version>1.140.0</version>
    </dependency>
    <dependency>
      <groupId>org.jetbrains</groupId>
      <artifactId>annotations</artifactId>
      <version>19.0.0</version>
      <scope>provided</scope>
    </dependency>
  </dependencies>
</project>
`;

/** The Maven names of the plugin's peer dependencies, as their assemblies declare them. */
export const FRAMEWORK_AND_CDK = ['dev.fwframework:core', 'software.amazon.awscdk:aws-cdk-lib', 'software.constructs:constructs'];

/** Each dependency's `groupId:artifactId` and scope (none: Maven's default, compile), read back from a POM. */
export function scopes(pom: string): Record<string, string> {
  const blocks = pom.match(/<dependency>[\s\S]*?<\/dependency>/g) ?? [];
  return Object.fromEntries(blocks.map((b) => [
    `${/<groupId>(.*)<\/groupId>/.exec(b)![1]}:${/<artifactId>(.*)<\/artifactId>/.exec(b)![1]}`,
    /<scope>(.*)<\/scope>/.exec(b)?.[1] ?? '(none)',
  ]));
}
