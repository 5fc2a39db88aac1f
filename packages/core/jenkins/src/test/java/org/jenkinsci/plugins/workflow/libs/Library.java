package org.jenkinsci.plugins.workflow.libs;

/**
 * Stand-in for pipeline-groovy-lib's annotation (jenkinsci/pipeline-groovy-lib-plugin@798.v5cc688825312,
 * src/main/java/org/jenkinsci/plugins/workflow/libs/Library.java: the same declaration, no @Target, one member
 * {@code String[] value()}), which a Jenkinsfile uses without an import: LibraryDecorator.java line 63 adds it.
 */
public @interface Library {
    String[] value();
}
