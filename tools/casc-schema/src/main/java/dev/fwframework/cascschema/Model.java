package dev.fwframework.cascschema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parser-independent model of the declarations read from the Java and Groovy sources. */
final class Model {
    private Model() {}

    /** One pinned source: a repository at a tag, exported to a directory. */
    static final class Source {
        final String id;
        final String version;
        final String repository;
        final String tag;
        final String commit;
        final String root;
        final List<String> codeRoots;

        Source(String id, String version, String repository, String tag, String commit, String root, List<String> codeRoots) {
            this.id = id;
            this.version = version;
            this.repository = repository;
            this.tag = tag;
            this.commit = commit;
            this.root = root;
            this.codeRoots = codeRoots;
        }
    }

    /** A type as written in the source: a (possibly qualified) name, type arguments, array dimensions. */
    static final class TypeRef {
        /** The name as written ("List", "java.util.List", "Map.Entry", "int", "T"), or "?" for a wildcard. */
        final String name;
        final List<TypeRef> args;
        final int dims;
        /** For "? extends X": X; null for a plain "?" (and for "? super X", which erases to Object here). */
        final TypeRef upper;

        TypeRef(String name, List<TypeRef> args, int dims, TypeRef upper) {
            this.name = name;
            this.args = args == null ? List.of() : args;
            this.dims = dims;
            this.upper = upper;
        }

        boolean isWildcard() {
            return "?".equals(name);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(name);
            if (upper != null) {
                sb.append(" extends ").append(upper);
            }
            if (!args.isEmpty()) {
                sb.append('<');
                for (int i = 0; i < args.size(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    sb.append(args.get(i));
                }
                sb.append('>');
            }
            sb.append("[]".repeat(dims));
            return sb.toString();
        }
    }

    /** The file a type is declared in: package, imports and text (for reading method bodies). */
    static final class FileCtx {
        final Source source;
        final String path;
        final String pkg;
        /** simple name -> canonical name of single-type imports. */
        final Map<String, String> singleImports = new LinkedHashMap<>();
        /** packages (or canonical type names) imported on demand. */
        final List<String> starImports = new ArrayList<>();
        /** member name -> canonical name of its type, of single static imports (Java only). */
        final Map<String, String> staticImports = new LinkedHashMap<>();
        /** canonical type names whose static members are imported on demand (Java only). */
        final List<String> staticStarImports = new ArrayList<>();
        /**
         * "new Permission(…)" / "new PermissionGroup(…)" expressions that are not the initializer of a field of a
         * declared type (in a method, a static block, a local or anonymous class, or nested in another expression):
         * the type as written and the line. Only these creations are not resolved by {@link Permissions}.
         */
        final List<Map.Entry<String, Integer>> otherCreations = new ArrayList<>();
        final boolean groovy;
        final String[] lines;

        FileCtx(Source source, String path, String pkg, boolean groovy, String text) {
            this.source = source;
            this.path = path;
            this.pkg = pkg;
            this.groovy = groovy;
            this.lines = text.split("\n", -1);
        }

        /** The text of lines [from, to] (1-based, inclusive). */
        String text(int from, int to) {
            StringBuilder sb = new StringBuilder();
            for (int i = Math.max(1, from); i <= Math.min(lines.length, to); i++) {
                sb.append(lines[i - 1]).append('\n');
            }
            return sb.toString();
        }
    }

    /** Annotation use: simple name -> raw values (string literal contents, or "X.class" / expression text). */
    static final class Annotations {
        final Map<String, List<String>> values = new LinkedHashMap<>();

        boolean has(String simpleName) {
            return values.containsKey(simpleName);
        }

        List<String> get(String simpleName) {
            return values.getOrDefault(simpleName, List.of());
        }

        void put(String name, List<String> vals) {
            int dot = name.lastIndexOf('.');
            values.put(dot >= 0 ? name.substring(dot + 1) : name, vals);
        }
    }

    static final class Param {
        final String name;
        final TypeRef type;
        final Annotations annotations;
        final int line;

        Param(String name, TypeRef type, Annotations annotations, int line) {
            this.name = name;
            this.type = type;
            this.annotations = annotations;
            this.line = line;
        }
    }

    static final class MethodInfo {
        final TypeInfo owner;
        final String name;
        final List<Param> params = new ArrayList<>();
        TypeRef returnType;
        boolean isPublic;
        boolean isStatic;
        boolean isAbstract;
        /** Typed parameters of a generic method: name -> first bound (or null). */
        final Map<String, TypeRef> typeParams = new LinkedHashMap<>();
        final Annotations annotations = new Annotations();
        int line;
        /** Text of the body (or of the whole declaration), for the few bodies the generator reads. */
        String body = "";
        int bodyLine;
        /** A Groovy property accessor generated by the compiler. */
        boolean generated;

        MethodInfo(TypeInfo owner, String name) {
            this.owner = owner;
            this.name = name;
        }
    }

    static final class FieldInfo {
        final TypeInfo owner;
        final String name;
        final TypeRef type;
        boolean isPublic;
        boolean isStatic;
        boolean isTransient;
        boolean isFinal;
        int line;
        /** The initializer when it is a string literal (for @Symbol(CONSTANT)). */
        String stringValue;
        /** The initializer (Java fields only), or null. */
        Expr init;

        FieldInfo(TypeInfo owner, String name, TypeRef type) {
            this.owner = owner;
            this.name = name;
            this.type = type;
        }
    }

    /**
     * An expression, as far as the generator reads them (field initializers): a string literal ("string", text is
     * its value), an instance creation ("new", text is the type as written, args its arguments), a simple or
     * qualified name or field access ("name", text is the dotted name), a method call ("call", text is the scope
     * and name as written, e.g. "Messages._Item_Permissions_Title"), a class literal ("class", text is the type as
     * written), a boolean or null literal ("literal"); anything else is "other". text of every kind but "string" is
     * the source text when no better form exists; source is the whitespace-normalized source text.
     */
    static final class Expr {
        final String kind;
        final String text;
        final List<Expr> args;
        final int line;
        final String source;

        Expr(String kind, String text, List<Expr> args, int line, String source) {
            this.kind = kind;
            this.text = text;
            this.args = args == null ? List.of() : args;
            this.line = line;
            this.source = source;
        }

        boolean is(String k) {
            return kind.equals(k);
        }

        @Override
        public String toString() {
            return source;
        }
    }

    static final class CtorInfo {
        final TypeInfo owner;
        final List<Param> params = new ArrayList<>();
        boolean isPublic;
        final Annotations annotations = new Annotations();
        int line;
        String body = "";
        int bodyLine;

        CtorInfo(TypeInfo owner) {
            this.owner = owner;
        }
    }

    static final class TypeInfo {
        final FileCtx file;
        final TypeInfo outer;
        /** Binary name: nested types joined with '$'. */
        final String fqcn;
        /** Canonical name: nested types joined with '.'. */
        final String canonical;
        final String simpleName;
        /** class, interface, enum, annotation, record. */
        String declKind = "class";
        boolean isAbstract;
        boolean isPublic;
        boolean isStatic;
        int line;
        final Map<String, TypeRef> typeParams = new LinkedHashMap<>();
        TypeRef superclass;
        final List<TypeRef> interfaces = new ArrayList<>();
        final List<MethodInfo> methods = new ArrayList<>();
        final List<FieldInfo> fields = new ArrayList<>();
        final List<CtorInfo> ctors = new ArrayList<>();
        final Annotations annotations = new Annotations();
        final List<String> enumConstants = new ArrayList<>();
        final Map<String, TypeInfo> members = new LinkedHashMap<>();

        TypeInfo(FileCtx file, TypeInfo outer, String simpleName) {
            this.file = file;
            this.outer = outer;
            this.simpleName = simpleName;
            if (outer != null) {
                this.fqcn = outer.fqcn + "$" + simpleName;
                this.canonical = outer.canonical + "." + simpleName;
            } else {
                String p = file.pkg.isEmpty() ? "" : file.pkg + ".";
                this.fqcn = p + simpleName;
                this.canonical = p + simpleName;
            }
        }

        boolean isInterface() {
            return declKind.equals("interface") || declKind.equals("annotation");
        }

        boolean isEnum() {
            return declKind.equals("enum");
        }

        /** abstract in the sense of java.lang.reflect.Modifier.isAbstract(Class.getModifiers()). */
        boolean isAbstractType() {
            return isInterface() || isAbstract;
        }

        List<MethodInfo> methodsNamed(String name) {
            List<MethodInfo> r = new ArrayList<>();
            for (MethodInfo m : methods) {
                if (m.name.equals(name)) {
                    r.add(m);
                }
            }
            return r;
        }

        @Override
        public String toString() {
            return fqcn;
        }
    }
}
