package dev.fwframework.cascschema;

import dev.fwframework.cascschema.Model.FileCtx;
import dev.fwframework.cascschema.Model.MethodInfo;
import dev.fwframework.cascschema.Model.TypeInfo;
import dev.fwframework.cascschema.Model.TypeRef;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The index of the declared types and name resolution (imports, same package, member types including inherited
 * ones, java.lang), plus what java.lang.reflect would answer about the resolved types: erasure, supertypes,
 * assignability, abstractness. Types of the JDK are answered by reflection on the running JDK (platform class loader
 * only); types outside the sources and the JDK keep their best-guess name and are treated as concrete, unrelated
 * classes.
 */
final class Types {
    static final Set<String> PRIMITIVES =
            Set.of("boolean", "byte", "char", "short", "int", "long", "float", "double", "void");

    final Map<String, TypeInfo> byFqcn = new LinkedHashMap<>();
    final Map<String, TypeInfo> byCanonical = new HashMap<>();
    private final Map<String, Map<String, TypeInfo>> byPackage = new HashMap<>();
    private final Map<String, List<String>> subtypes = new HashMap<>();

    void add(TypeInfo t) {
        TypeInfo prev = byFqcn.get(t.fqcn);
        if (prev != null) {
            // the same class in two sources (e.g. shaded copies): keep the first source given
            return;
        }
        byFqcn.put(t.fqcn, t);
        byCanonical.put(t.canonical, t);
        if (t.outer == null) {
            byPackage.computeIfAbsent(t.file.pkg, k -> new HashMap<>()).put(t.simpleName, t);
        }
    }

    TypeInfo get(String fqcn) {
        return fqcn == null ? null : byFqcn.get(fqcn);
    }

    // ------------------------------------------------------------------ resolved types

    /** A resolved type, the counterpart of java.lang.reflect.Type. */
    static final class RType {
        /** Binary class name or primitive; for a type variable its erasure (first bound). */
        final String raw;
        /** Non-null for a type variable. */
        final String typeVar;
        final List<RType> args;
        final int dims;
        final boolean wildcard;
        /** For a wildcard: its upper bound, null for Object. */
        final RType upper;

        RType(String raw, String typeVar, List<RType> args, int dims, boolean wildcard, RType upper) {
            this.raw = raw;
            this.typeVar = typeVar;
            this.args = args == null ? List.of() : args;
            this.dims = dims;
            this.wildcard = wildcard;
            this.upper = upper;
        }

        static RType cls(String raw) {
            return new RType(raw, null, null, 0, false, null);
        }

        /** A java.lang.Class (neither parameterized, nor a type variable, nor a generic array). */
        boolean isClass() {
            return typeVar == null && args.isEmpty() && !wildcard;
        }

        boolean isParameterized() {
            return dims == 0 && typeVar == null && !args.isEmpty() && !wildcard;
        }

        boolean isGenericArray() {
            return dims > 0 && (typeVar != null || !args.isEmpty());
        }

        RType component() {
            return new RType(raw, typeVar, args, dims - 1, wildcard, upper);
        }

        /** The erasure as reflection names it: "java.lang.String", "int", "[Ljava.lang.String;" is written "java.lang.String[]". */
        String erasure() {
            return raw + "[]".repeat(dims);
        }

        RType rawOnly() {
            return new RType(raw, null, null, dims, false, null);
        }

        @Override
        public String toString() {
            return (typeVar != null ? typeVar + "/" : "") + raw + (args.isEmpty() ? "" : args.toString()) + "[]".repeat(dims);
        }
    }

    /** Resolves a written type in the scope of a type (and, optionally, of a generic method). */
    RType resolve(TypeRef ref, TypeInfo scope, MethodInfo method) {
        if (ref == null) {
            return RType.cls("java.lang.Object");
        }
        if (ref.isWildcard()) {
            RType up = ref.upper == null ? null : resolve(ref.upper, scope, method);
            return new RType(up == null ? "java.lang.Object" : up.raw, null, null, 0, true, up);
        }
        if (PRIMITIVES.contains(ref.name)) {
            return new RType(ref.name, null, null, ref.dims, false, null);
        }
        if (!ref.name.contains(".")) {
            if (method != null && method.typeParams.containsKey(ref.name)) {
                return typeVar(ref, method.typeParams.get(ref.name), method.owner, method);
            }
            for (TypeInfo t = scope; t != null; t = t.outer) {
                if (t.typeParams.containsKey(ref.name)) {
                    return typeVar(ref, t.typeParams.get(ref.name), t, null);
                }
            }
        }
        List<RType> args = new ArrayList<>();
        for (TypeRef a : ref.args) {
            args.add(resolve(a, scope, method));
        }
        String name = resolveName(ref.name, scope);
        return new RType(name, null, args, ref.dims, false, null);
    }

    private RType typeVar(TypeRef ref, TypeRef bound, TypeInfo scope, MethodInfo method) {
        String erasure = "java.lang.Object";
        if (bound != null && !bound.name.equals(ref.name)) {
            // erasure of the first bound; its own arguments are not needed (and may be recursive)
            RType b = resolve(new TypeRef(bound.name, null, bound.dims, null), scope, method);
            erasure = b.raw;
        }
        return new RType(erasure, ref.name, null, ref.dims, false, null);
    }

    // ------------------------------------------------------------------ names

    private final Set<TypeInfo> resolvingSupers = new HashSet<>();
    private final Map<TypeInfo, RType> superclassCache = new IdentityHashMap<>();
    private final Map<TypeInfo, List<RType>> interfacesCache = new IdentityHashMap<>();

    /** The binary name a written (possibly qualified) type name denotes in scope, or the best guess. */
    String resolveName(String name, TypeInfo scope) {
        String[] parts = name.split("\\.");
        String first = resolveSimple(parts[0], scope);
        if (first != null) {
            return descend(first, parts, 1);
        }
        // a qualified name: the longest known package or type prefix
        for (int i = parts.length; i >= 1; i--) {
            String canon = String.join(".", java.util.Arrays.copyOfRange(parts, 0, i));
            TypeInfo t = byCanonical.get(canon);
            if (t != null) {
                return descend(t.fqcn, parts, i);
            }
        }
        String jdk = jdkBinaryName(name);
        if (jdk != null) {
            return jdk;
        }
        if (parts.length == 1) {
            // not imported, not in the package, not in java.lang: most likely an on-demand import outside the sources
            for (String star : scope.file.starImports) {
                if (!star.equals("java.lang") && !star.startsWith("java.") && !star.startsWith("groovy.")) {
                    return star + "." + name;
                }
            }
            return scope.file.pkg.isEmpty() ? name : scope.file.pkg + "." + name;
        }
        return name;
    }

    private String descend(String fqcn, String[] parts, int from) {
        String cur = fqcn;
        for (int i = from; i < parts.length; i++) {
            TypeInfo t = byFqcn.get(cur);
            String next = null;
            if (t != null) {
                next = findMemberType(t, parts[i]);
            } else {
                Class<?> c = jdk(cur);
                if (c != null) {
                    for (Class<?> m : c.getClasses()) {
                        if (m.getSimpleName().equals(parts[i])) {
                            next = m.getName();
                        }
                    }
                }
            }
            cur = next != null ? next : cur + "$" + parts[i];
        }
        return cur;
    }

    private String resolveSimple(String simple, TypeInfo scope) {
        for (TypeInfo t = scope; t != null; t = t.outer) {
            if (t.simpleName.equals(simple)) {
                return t.fqcn;
            }
            String m = findMemberType(t, simple);
            if (m != null) {
                return m;
            }
        }
        FileCtx f = scope.file;
        String imp = f.singleImports.get(simple);
        if (imp != null) {
            return canonicalToBinary(imp);
        }
        Map<String, TypeInfo> pkg = byPackage.get(f.pkg);
        if (pkg != null && pkg.containsKey(simple)) {
            return pkg.get(simple).fqcn;
        }
        for (String star : f.starImports) {
            TypeInfo t = byCanonical.get(star + "." + simple);
            if (t != null) {
                return t.fqcn;
            }
            TypeInfo owner = byCanonical.get(star);
            if (owner != null) {
                String m = findMemberType(owner, simple);
                if (m != null) {
                    return m;
                }
            }
            String jdk = jdkBinaryName(star + "." + simple);
            if (jdk != null) {
                return jdk;
            }
        }
        return null;
    }

    /** A member type of t, declared or inherited. */
    private String findMemberType(TypeInfo t, String simple) {
        return findMemberType(t, simple, new HashSet<>());
    }

    private String findMemberType(TypeInfo t, String simple, Set<TypeInfo> seen) {
        if (!seen.add(t)) {
            return null;
        }
        TypeInfo m = t.members.get(simple);
        if (m != null) {
            return m.fqcn;
        }
        if (resolvingSupers.contains(t)) {
            return null;
        }
        List<String> sups = new ArrayList<>();
        RType sc = superclass(t);
        if (sc != null) {
            sups.add(sc.raw);
        }
        for (RType i : interfaces(t)) {
            sups.add(i.raw);
        }
        for (String s : sups) {
            TypeInfo st = byFqcn.get(s);
            if (st != null) {
                String r = findMemberType(st, simple, seen);
                if (r != null) {
                    return r;
                }
            }
        }
        return null;
    }

    String canonicalToBinary(String canon) {
        TypeInfo t = byCanonical.get(canon);
        if (t != null) {
            return t.fqcn;
        }
        String jdk = jdkBinaryName(canon);
        if (jdk != null) {
            return jdk;
        }
        // a nested type of a known type imported by its canonical name
        int dot = canon.lastIndexOf('.');
        while (dot > 0) {
            TypeInfo owner = byCanonical.get(canon.substring(0, dot));
            if (owner != null) {
                return owner.fqcn + "$" + canon.substring(dot + 1).replace('.', '$');
            }
            dot = canon.lastIndexOf('.', dot - 1);
        }
        return canon;
    }

    // ------------------------------------------------------------------ supertypes

    /** The generic superclass, null for interfaces and java.lang.Object (like Class.getGenericSuperclass()). */
    RType superclass(TypeInfo t) {
        if (superclassCache.containsKey(t)) {
            return superclassCache.get(t);
        }
        RType r;
        if (t.isInterface()) {
            r = null;
        } else if (t.isEnum()) {
            r = new RType("java.lang.Enum", null, List.of(RType.cls(t.fqcn)), 0, false, null);
        } else if (t.declKind.equals("record")) {
            r = RType.cls("java.lang.Record");
        } else if (t.superclass == null) {
            r = RType.cls("java.lang.Object");
        } else {
            resolvingSupers.add(t);
            try {
                // t's own type parameters and member types are in scope in its extends clause, its inherited ones not
                r = resolve(t.superclass, t, null);
            } finally {
                resolvingSupers.remove(t);
            }
        }
        superclassCache.put(t, r);
        return r;
    }

    List<RType> interfaces(TypeInfo t) {
        List<RType> r = interfacesCache.get(t);
        if (r != null) {
            return r;
        }
        r = new ArrayList<>();
        resolvingSupers.add(t);
        try {
            for (TypeRef i : t.interfaces) {
                r.add(resolve(i, t, null));
            }
        } finally {
            resolvingSupers.remove(t);
        }
        interfacesCache.put(t, r);
        return r;
    }

    /** Erased direct supertypes (superclass first, java.lang.Object left out), as the schema lists them. */
    List<String> directSupertypes(String fqcn) {
        List<String> r = new ArrayList<>();
        TypeInfo t = byFqcn.get(fqcn);
        if (t != null) {
            RType sc = superclass(t);
            if (sc != null && !sc.raw.equals("java.lang.Object")) {
                r.add(sc.raw);
            }
            for (RType i : interfaces(t)) {
                r.add(i.raw);
            }
            return r;
        }
        Class<?> c = jdk(fqcn);
        if (c != null) {
            if (c.getSuperclass() != null && c.getSuperclass() != Object.class) {
                r.add(c.getSuperclass().getName());
            }
            for (Class<?> i : c.getInterfaces()) {
                r.add(i.getName());
            }
        }
        return r;
    }

    /** Class.isAssignableFrom for erased names: is 'from' a subtype of 'to'? */
    boolean isSubtype(String from, String to) {
        if (from.equals(to)) {
            return true;
        }
        if (PRIMITIVES.contains(from) || PRIMITIVES.contains(to) || from.endsWith("[]") || to.endsWith("[]")) {
            return false;
        }
        if (to.equals("java.lang.Object")) {
            return true;
        }
        Class<?> toJdk = jdk(to);
        Deque<String> q = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        q.add(from);
        while (!q.isEmpty()) {
            String s = q.poll();
            if (!seen.add(s)) {
                continue;
            }
            if (s.equals(to)) {
                return true;
            }
            Class<?> sj = jdk(s);
            if (sj != null) {
                if (toJdk != null && toJdk.isAssignableFrom(sj)) {
                    return true;
                }
                continue;
            }
            q.addAll(directSupertypes(s));
        }
        return false;
    }

    /** Modifier.isAbstract(Class.getModifiers()): abstract classes and interfaces. Unknown types count as concrete. */
    boolean isAbstract(String fqcn) {
        TypeInfo t = byFqcn.get(fqcn);
        if (t != null) {
            return t.isAbstractType();
        }
        Class<?> c = jdk(fqcn);
        return c != null && java.lang.reflect.Modifier.isAbstract(c.getModifiers()) && !c.isArray() && !c.isPrimitive();
    }

    boolean isInterface(String fqcn) {
        TypeInfo t = byFqcn.get(fqcn);
        if (t != null) {
            return t.isInterface();
        }
        Class<?> c = jdk(fqcn);
        return c != null && c.isInterface();
    }

    boolean isEnum(String fqcn) {
        TypeInfo t = byFqcn.get(fqcn);
        if (t != null) {
            return t.isEnum();
        }
        Class<?> c = jdk(fqcn);
        return c != null && c.isEnum();
    }

    /** The generic superclass of an erased class (source or JDK), as reflection gives it; null if none known. */
    RType genericSuperclass(RType cls) {
        if (cls.dims > 0) {
            return RType.cls("java.lang.Object");
        }
        if (PRIMITIVES.contains(cls.raw) || cls.raw.equals("java.lang.Object")) {
            return null;
        }
        TypeInfo t = byFqcn.get(cls.raw);
        if (t != null) {
            return superclass(t);
        }
        Class<?> c = jdk(cls.raw);
        if (c != null) {
            java.lang.reflect.Type g = c.getGenericSuperclass();
            return g == null ? null : fromReflection(g, 0);
        }
        return null;
    }

    private RType fromReflection(java.lang.reflect.Type g, int depth) {
        if (g instanceof Class<?> c) {
            int dims = 0;
            while (c.isArray()) {
                c = c.getComponentType();
                dims++;
            }
            return new RType(c.getName(), null, null, dims, false, null);
        }
        if (g instanceof ParameterizedType pt) {
            List<RType> args = new ArrayList<>();
            for (java.lang.reflect.Type a : pt.getActualTypeArguments()) {
                args.add(depth > 4 ? RType.cls("java.lang.Object") : fromReflection(a, depth + 1));
            }
            return new RType(((Class<?>) pt.getRawType()).getName(), null, args, 0, false, null);
        }
        if (g instanceof TypeVariable<?> tv) {
            java.lang.reflect.Type b = tv.getBounds()[0];
            String erasure = b instanceof Class<?> bc ? bc.getName()
                    : b instanceof ParameterizedType bp ? ((Class<?>) bp.getRawType()).getName() : "java.lang.Object";
            return new RType(erasure, tv.getName(), null, 0, false, null);
        }
        if (g instanceof WildcardType w) {
            java.lang.reflect.Type up = w.getUpperBounds()[0];
            RType u = up == Object.class ? null : fromReflection(up, depth + 1);
            return new RType(u == null ? "java.lang.Object" : u.raw, null, null, 0, true, u);
        }
        if (g instanceof GenericArrayType ga) {
            RType c = fromReflection(ga.getGenericComponentType(), depth + 1);
            return new RType(c.raw, c.typeVar, c.args, c.dims + 1, false, null);
        }
        return RType.cls("java.lang.Object");
    }

    // ------------------------------------------------------------------ the JDK

    private final Map<String, Class<?>> jdkCache = new HashMap<>();
    private static final Class<?> NONE = Void.class;

    /** A class of the running JDK by binary name (platform class loader only), or null. */
    Class<?> jdk(String binaryName) {
        if (binaryName == null || PRIMITIVES.contains(binaryName) || binaryName.endsWith("[]")) {
            return null;
        }
        Class<?> c = jdkCache.get(binaryName);
        if (c == null) {
            try {
                c = Class.forName(binaryName, false, ClassLoader.getPlatformClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                c = NONE;
            }
            jdkCache.put(binaryName, c);
        }
        return c == NONE && !binaryName.equals("java.lang.Void") ? null : c;
    }

    /** The binary name of a JDK class named canonically ("java.util.Map.Entry" -> "java.util.Map$Entry"), or null. */
    String jdkBinaryName(String canonical) {
        String n = canonical;
        while (true) {
            if (jdk(n) != null) {
                return n;
            }
            int dot = n.lastIndexOf('.');
            if (dot < 0) {
                return null;
            }
            n = n.substring(0, dot) + "$" + n.substring(dot + 1);
            if (n.indexOf('.') < 0) {
                return null;
            }
        }
    }

    // ------------------------------------------------------------------ subtypes

    /** Direct subtypes (classes and interfaces in the sources naming fqcn as superclass or interface). */
    List<String> directSubtypes(String fqcn) {
        if (subtypes.isEmpty()) {
            for (TypeInfo t : byFqcn.values()) {
                for (String s : directSupertypes(t.fqcn)) {
                    subtypes.computeIfAbsent(s, k -> new ArrayList<>()).add(t.fqcn);
                }
            }
        }
        return subtypes.getOrDefault(fqcn, List.of());
    }
}
