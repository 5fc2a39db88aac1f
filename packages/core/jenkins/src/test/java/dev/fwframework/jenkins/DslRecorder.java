package dev.fwframework.jenkins;

import groovy.lang.Closure;
import groovy.lang.GroovyObjectSupport;
import groovy.lang.Script;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Records the calls a Job DSL script makes, nested as the script nests them: every method call becomes a node with its
 * arguments, and a closure argument is run with a recorder for its children as delegate. The Job DSL plugin itself
 * is not on Maven Central; what this checks is what the script asks of it.
 */
final class DslRecorder extends GroovyObjectSupport {
    static final class Node {
        final String name;
        final List<Object> args;
        final List<Node> children = new ArrayList<>();

        Node(String name, List<Object> args) {
            this.name = name;
            this.args = args;
        }

        Node child(String childName) {
            return children.stream().filter(c -> c.name.equals(childName)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " has no " + childName + " (it has " + children.stream().map(c -> c.name).toList() + ")"));
        }

        Node path(String... names) {
            Node node = this;
            for (String n : names) node = node.child(n);
            return node;
        }
    }

    private final Node node;

    private DslRecorder(Node node) {
        this.node = node;
    }

    /** Runs a script with every top-level DSL call recorded under root. */
    static void run(Script script, Node root) {
        DslRecorder recorder = new DslRecorder(root);
        script.setMetaClass(new groovy.lang.DelegatingMetaClass(script.getMetaClass()) {
            @Override
            public Object invokeMethod(Object object, String methodName, Object[] arguments) {
                if (methodName.equals("run")) return super.invokeMethod(object, methodName, arguments);
                return recorder.invokeMethod(methodName, arguments);
            }
        });
        script.run();
    }

    @Override
    public Object invokeMethod(String name, Object args) {
        Object[] arguments = args instanceof Object[] ? (Object[]) args : new Object[] {args};
        List<Object> plain = new ArrayList<>();
        Closure<?> body = null;
        for (Object a : arguments) {
            if (a instanceof Closure<?> c) body = c; else plain.add(a);
        }
        Node child = new Node(name, plain);
        node.children.add(child);
        if (body != null) {
            Closure<?> copy = (Closure<?>) body.clone();
            copy.setDelegate(new DslRecorder(child));
            copy.setResolveStrategy(Closure.DELEGATE_ONLY);
            copy.call();
        }
        return null;
    }

    @Override
    public String toString() {
        return node.name + Arrays.toString(node.args.toArray());
    }
}
