package dev.fwframework.cascschema;

import dev.fwframework.cascschema.Model.Annotations;
import dev.fwframework.cascschema.Model.CtorInfo;
import dev.fwframework.cascschema.Model.FieldInfo;
import dev.fwframework.cascschema.Model.FileCtx;
import dev.fwframework.cascschema.Model.MethodInfo;
import dev.fwframework.cascschema.Model.Param;
import dev.fwframework.cascschema.Model.Source;
import dev.fwframework.cascschema.Model.TypeInfo;
import dev.fwframework.cascschema.Model.TypeRef;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.codehaus.groovy.ast.AnnotatedNode;
import org.codehaus.groovy.ast.AnnotationNode;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.ConstructorNode;
import org.codehaus.groovy.ast.FieldNode;
import org.codehaus.groovy.ast.GenericsType;
import org.codehaus.groovy.ast.ImportNode;
import org.codehaus.groovy.ast.InnerClassNode;
import org.codehaus.groovy.ast.MethodNode;
import org.codehaus.groovy.ast.ModuleNode;
import org.codehaus.groovy.ast.Parameter;
import org.codehaus.groovy.ast.PropertyNode;
import org.codehaus.groovy.ast.expr.ClassExpression;
import org.codehaus.groovy.ast.expr.ConstantExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.ListExpression;
import org.codehaus.groovy.control.CompilationUnit;
import org.codehaus.groovy.control.CompilerConfiguration;
import org.codehaus.groovy.control.Phases;
import org.codehaus.groovy.control.SourceUnit;

/**
 * Reads Groovy classes into the {@link Model}, with Groovy's own parser stopped at the CONVERSION phase (names are
 * not resolved by Groovy; the generator resolves them like Java names, with Groovy's default imports). Groovy
 * properties get the accessors the Groovy compiler generates: a public getter (and isX for a boolean), and a public
 * setter unless the property is final.
 */
final class GroovyReader {

    void read(Source source, Path file, String relPath, Consumer<TypeInfo> sink) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        CompilationUnit unit = new CompilationUnit(new CompilerConfiguration());
        SourceUnit su = unit.addSource(relPath, text);
        try {
            unit.compile(Phases.CONVERSION);
        } catch (RuntimeException e) {
            System.err.println("warning: cannot parse " + source.id + ":" + relPath + ": " + e.getMessage());
            return;
        }
        ModuleNode mod = su.getAST();
        String pkg = mod.getPackageName() == null ? "" : mod.getPackageName().replaceAll("\\.$", "");
        FileCtx ctx = new FileCtx(source, relPath, pkg, true, text);
        for (ImportNode imp : mod.getImports()) {
            ctx.singleImports.put(imp.getAlias(), imp.getClassName());
        }
        for (ImportNode imp : mod.getStarImports()) {
            ctx.starImports.add(imp.getPackageName().replaceAll("\\.$", ""));
        }
        // Groovy's default imports
        for (String p : List.of("java.lang", "java.util", "java.io", "java.net", "groovy.lang", "groovy.util")) {
            ctx.starImports.add(p);
        }
        ctx.singleImports.putIfAbsent("BigDecimal", "java.math.BigDecimal");
        ctx.singleImports.putIfAbsent("BigInteger", "java.math.BigInteger");

        Map<ClassNode, TypeInfo> done = new HashMap<>();
        for (ClassNode cn : mod.getClasses()) {
            if (cn.isScript()) {
                continue;
            }
            read(ctx, cn, done, sink);
        }
    }

    private TypeInfo read(FileCtx ctx, ClassNode cn, Map<ClassNode, TypeInfo> done, Consumer<TypeInfo> sink) {
        if (done.containsKey(cn)) {
            return done.get(cn);
        }
        TypeInfo outer = null;
        if (cn instanceof InnerClassNode icn) {
            if (icn.isAnonymous()) {
                done.put(cn, null);
                return null;
            }
            outer = read(ctx, icn.getOuterClass(), done, sink);
            if (outer == null) {
                done.put(cn, null);
                return null;
            }
        }
        String simple = cn.getNameWithoutPackage();
        simple = simple.substring(simple.lastIndexOf('$') + 1);
        TypeInfo t = new TypeInfo(ctx, outer, simple);
        done.put(cn, t);
        if (outer != null) {
            outer.members.put(simple, t);
        }
        int mods = cn.getModifiers();
        t.line = declarationLine(ctx, cn.getLineNumber(), simple);
        t.isPublic = !Modifier.isPrivate(mods) && !Modifier.isProtected(mods); // Groovy classes are public by default
        t.isStatic = Modifier.isStatic(mods);
        t.isAbstract = Modifier.isAbstract(mods) && !cn.isInterface();
        t.declKind = cn.isAnnotationDefinition() ? "annotation" : cn.isInterface() ? "interface" : cn.isEnum() ? "enum" : "class";
        annotations(cn, t.annotations);
        if (cn.getGenericsTypes() != null) {
            for (GenericsType g : cn.getGenericsTypes()) {
                t.typeParams.put(g.getName(), g.getUpperBounds() == null ? null : ref(g.getUpperBounds()[0]));
            }
        }
        ClassNode sup = cn.getUnresolvedSuperClass(false);
        if (sup != null && !t.isInterface() && !t.isEnum() && !sup.getName().equals("java.lang.Object")) {
            t.superclass = ref(sup);
        }
        for (ClassNode i : cn.getUnresolvedInterfaces(false)) {
            t.interfaces.add(ref(i));
        }
        sink.accept(t);

        Set<String> declared = new HashSet<>();
        for (MethodNode mn : cn.getMethods()) {
            if (mn.isSynthetic()) {
                continue;
            }
            MethodInfo m = new MethodInfo(t, mn.getName());
            m.returnType = ref(mn.getReturnType());
            int mm = mn.getModifiers();
            m.isPublic = !Modifier.isPrivate(mm) && !Modifier.isProtected(mm);
            m.isStatic = Modifier.isStatic(mm);
            m.isAbstract = Modifier.isAbstract(mm);
            m.line = mn.getLineNumber();
            for (Parameter p : mn.getParameters()) {
                Annotations a = new Annotations();
                annotations(p, a);
                m.params.add(new Param(p.getName(), ref(p.getType()), a, p.getLineNumber()));
            }
            if (mn.getGenericsTypes() != null) {
                for (GenericsType g : mn.getGenericsTypes()) {
                    m.typeParams.put(g.getName(), g.getUpperBounds() == null ? null : ref(g.getUpperBounds()[0]));
                }
            }
            annotations(mn, m.annotations);
            m.bodyLine = mn.getLineNumber();
            m.body = ctx.text(mn.getLineNumber(), mn.getLastLineNumber());
            t.methods.add(m);
            declared.add(mn.getName() + "/" + mn.getParameters().length);
        }
        for (ConstructorNode cnode : cn.getDeclaredConstructors()) {
            CtorInfo c = new CtorInfo(t);
            int cm = cnode.getModifiers();
            c.isPublic = !Modifier.isPrivate(cm) && !Modifier.isProtected(cm);
            c.line = cnode.getLineNumber();
            for (Parameter p : cnode.getParameters()) {
                Annotations a = new Annotations();
                annotations(p, a);
                c.params.add(new Param(p.getName(), ref(p.getType()), a, p.getLineNumber()));
            }
            annotations(cnode, c.annotations);
            c.bodyLine = cnode.getLineNumber();
            c.body = ctx.text(cnode.getLineNumber(), cnode.getLastLineNumber());
            t.ctors.add(c);
        }
        Set<String> props = new HashSet<>();
        for (PropertyNode pn : cn.getProperties()) {
            props.add(pn.getName());
            String cap = Character.toUpperCase(pn.getName().charAt(0)) + pn.getName().substring(1);
            TypeRef type = ref(pn.getType());
            int pm = pn.getModifiers();
            boolean isStatic = Modifier.isStatic(pm);
            List<String> getters = new ArrayList<>();
            getters.add("get" + cap);
            if (type.dims == 0 && type.name.equals("boolean")) {
                getters.add("is" + cap);
            }
            for (String g : getters) {
                if (!declared.contains(g + "/0")) {
                    MethodInfo m = new MethodInfo(t, g);
                    m.returnType = type;
                    m.isPublic = true;
                    m.isStatic = isStatic;
                    m.line = pn.getLineNumber();
                    m.generated = true;
                    t.methods.add(m);
                }
            }
            if (!Modifier.isFinal(pm) && !declared.contains("set" + cap + "/1")) {
                MethodInfo m = new MethodInfo(t, "set" + cap);
                m.returnType = new TypeRef("void", null, 0, null);
                m.isPublic = true;
                m.isStatic = isStatic;
                m.line = pn.getLineNumber();
                m.generated = true;
                m.params.add(new Param(pn.getName(), type, new Annotations(), pn.getLineNumber()));
                t.methods.add(m);
            }
        }
        for (FieldNode fn : cn.getFields()) {
            if (props.contains(fn.getName()) || fn.isSynthetic()) {
                continue;
            }
            FieldInfo f = new FieldInfo(t, fn.getName(), ref(fn.getType()));
            int fm = fn.getModifiers();
            f.isPublic = Modifier.isPublic(fm);
            f.isStatic = Modifier.isStatic(fm);
            f.isFinal = Modifier.isFinal(fm);
            f.isTransient = Modifier.isTransient(fm);
            f.line = fn.getLineNumber();
            if (fn.getInitialExpression() instanceof ConstantExpression ce && ce.getValue() instanceof String s) {
                f.stringValue = s;
            }
            t.fields.add(f);
            if (cn.isEnum() && fn.isEnum()) {
                t.enumConstants.add(fn.getName());
            }
        }
        return t;
    }

    /** The line of "class Name" at or after the node's first line (which is that of its first annotation). */
    private static int declarationLine(FileCtx ctx, int from, String simple) {
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("\\b(class|interface|enum|trait)\\s+" + simple + "\\b");
        for (int i = Math.max(1, from); i <= Math.min(ctx.lines.length, from + 30); i++) {
            if (p.matcher(ctx.lines[i - 1]).find()) {
                return i;
            }
        }
        return from;
    }

    private static void annotations(AnnotatedNode n, Annotations out) {
        for (AnnotationNode a : n.getAnnotations()) {
            List<String> values = new ArrayList<>();
            Expression v = a.getMember("value");
            if (v != null) {
                values(v, values);
            }
            out.put(a.getClassNode().getName(), values);
        }
    }

    private static void values(Expression e, List<String> out) {
        if (e instanceof ConstantExpression c && c.getValue() instanceof String s) {
            out.add(s);
        } else if (e instanceof ListExpression l) {
            for (Expression x : l.getExpressions()) {
                values(x, out);
            }
        } else if (e instanceof ClassExpression c) {
            out.add(c.getType().getName() + ".class");
        } else {
            out.add("@const:" + e.getText());
        }
    }

    static TypeRef ref(ClassNode cn) {
        if (cn.isArray()) {
            TypeRef c = ref(cn.getComponentType());
            return new TypeRef(c.name, c.args, c.dims + 1, c.upper);
        }
        List<TypeRef> args = new ArrayList<>();
        if (cn.getGenericsTypes() != null && !cn.isGenericsPlaceHolder()) {
            for (GenericsType g : cn.getGenericsTypes()) {
                if (g.isWildcard()) {
                    args.add(new TypeRef("?", null, 0, g.getUpperBounds() == null ? null : ref(g.getUpperBounds()[0])));
                } else {
                    args.add(ref(g.getType()));
                }
            }
        }
        String name = cn.getUnresolvedName();
        if (name.equals("java.lang.Object") || name.equals("Object")) {
            name = "java.lang.Object";
        }
        return new TypeRef(name, args, 0, null);
    }
}
