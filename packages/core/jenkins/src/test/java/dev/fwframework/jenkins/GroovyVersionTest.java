package dev.fwframework.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import groovy.lang.GroovyShell;
import groovy.lang.GroovySystem;
import org.codehaus.groovy.control.MultipleCompilationErrorsException;
import org.junit.jupiter.api.Test;

/**
 * The Jenkins code is tested under the Groovy the pinned core runs it with (jenkins-2.568.2 bom/pom.xml line 42:
 * 2.4.21), so a construct only later Groovy parses fails here as it would in Jenkins.
 */
class GroovyVersionTest {
    @Test
    void theTestsRunUnderCoresGroovy() {
        assertEquals("2.4.21", GroovySystem.getVersion());
    }

    @Test
    void negativeControlAGroovy3OnlyConstructDoesNotParse() {
        assertThrows(MultipleCompilationErrorsException.class, () -> new GroovyShell().parse("assert 1 !in [2]"));
        new GroovyShell().parse("assert !(1 in [2])");
    }
}
