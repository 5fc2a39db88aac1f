package dev.fwframework.cascschema;

import dev.fwframework.cascschema.Model.CtorInfo;
import dev.fwframework.cascschema.Model.FieldInfo;
import dev.fwframework.cascschema.Model.MethodInfo;
import dev.fwframework.cascschema.Model.Param;
import dev.fwframework.cascschema.Model.TypeInfo;
import dev.fwframework.cascschema.Types.RType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What configuration-as-code (io.jenkins.plugins.casc, 2117.vc05a_0b_e6b_f4e) derives by reflection at run time,
 * derived here from the declarations in the sources. Each method names the CasC code it mirrors.
 */
final class Casc {
    static final String OBJECT = "java.lang.Object";
    static final String COLLECTION = "java.util.Collection";
    static final String MAP = "java.util.Map";
    static final String DESCRIBABLE = "hudson.model.Describable";
    static final String DESCRIPTOR = "hudson.model.Descriptor";
    static final String PERSISTED_LIST = "hudson.util.PersistedList";
    static final String DESCRIBABLE_LIST = "hudson.util.DescribableList";
    static final String CONFIGURABLE = "io.jenkins.plugins.casc.Configurable";
    static final String CONFIGURATOR = "io.jenkins.plugins.casc.Configurator";
    static final String ROOT_CONFIGURATOR = "io.jenkins.plugins.casc.RootElementConfigurator";
    static final String BASE_CONFIGURATOR = "io.jenkins.plugins.casc.BaseConfigurator";
    static final String DATABOUND_CONFIGURATOR = "io.jenkins.plugins.casc.impl.configurators.DataBoundConfigurator";
    static final String HETERO_CONFIGURATOR = "io.jenkins.plugins.casc.impl.configurators.HeteroDescribableConfigurator";
    static final String CATEGORY = "jenkins.model.GlobalConfigurationCategory";
    static final String UNCLASSIFIED = "jenkins.model.GlobalConfigurationCategory$Unclassified";
    static final String MANAGEMENT_LINK = "hudson.model.ManagementLink";
    /** CasC's own generic configurators: their describe()/getTarget() are the generic behaviour modelled here. */
    static final Set<String> GENERIC_CONFIGURATORS = Set.of(BASE_CONFIGURATOR, DATABOUND_CONFIGURATOR, HETERO_CONFIGURATOR);

    final Types types;
    /** Directories (relative resource paths, '/'-separated) that hold a global.jelly or global.groovy view. */
    final Set<String> globalViews;
    /** Classes registered with Stapler.CONVERT_UTILS.register(converter, X.class) somewhere in the sources. */
    final Set<String> registeredConverters;

    Casc(Types types, Set<String> globalViews, Set<String> registeredConverters) {
        this.types = types;
        this.globalViews = globalViews;
        this.registeredConverters = registeredConverters;
    }

    // ================================================================== attributes

    static final class Attr {
        final String name;
        /** Erased type of the attribute (element type when multiple). */
        final String type;
        final boolean multiple;
        /** constructor, setter, field, getter (a PersistedList getter), configurator. */
        String from;
        TypeInfo declaredIn;
        int line;
        boolean deprecated;
        List<String> restricted = List.of();

        Attr(String name, String type, boolean multiple) {
            this.name = name;
            this.type = type;
            this.multiple = multiple;
        }
    }

    /** A public method as Class.getMethods() lists it, with its declaring type. */
    record MRef(MethodInfo m, TypeInfo owner) {}

    /** Emulates Class.getMethods() over the supertypes that are in the sources (JDK members are never bean properties here). */
    List<MRef> publicMethods(TypeInfo target) {
        List<MRef> out = new ArrayList<>();
        Set<TypeInfo> seen = new HashSet<>();
        collectMethods(target, true, out, seen);
        return out;
    }

    private void collectMethods(TypeInfo t, boolean root, List<MRef> out, Set<TypeInfo> seen) {
        if (!seen.add(t)) {
            return;
        }
        for (MethodInfo m : t.methods) {
            if (!m.isPublic) {
                continue;
            }
            if (t.isInterface() && m.isStatic && !root) {
                continue; // static interface methods are not inherited
            }
            if (overridden(m, out)) {
                continue;
            }
            out.add(new MRef(m, t));
        }
        RType sc = types.superclass(t);
        if (sc != null && types.get(sc.raw) != null) {
            collectMethods(types.get(sc.raw), false, out, seen);
        }
        for (RType i : types.interfaces(t)) {
            if (types.get(i.raw) != null) {
                collectMethods(types.get(i.raw), false, out, seen);
            }
        }
    }

    /** Is m (of a supertype) overridden by a method already collected (same erasure, or a generic parameter made concrete)? */
    private boolean overridden(MethodInfo m, List<MRef> collected) {
        for (MRef r : collected) {
            MethodInfo o = r.m();
            if (!o.name.equals(m.name) || o.params.size() != m.params.size()) {
                continue;
            }
            boolean same = true;
            for (int i = 0; i < m.params.size(); i++) {
                RType pm = paramType(m, i);
                RType po = paramType(o, i);
                if (pm.typeVar == null && !pm.erasure().equals(po.erasure())) {
                    same = false;
                    break;
                }
            }
            if (same) {
                return true;
            }
        }
        return false;
    }

    RType paramType(MethodInfo m, int i) {
        return types.resolve(m.params.get(i).type, m.owner, m);
    }

    RType returnType(MethodInfo m) {
        return types.resolve(m.returnType, m.owner, m);
    }

    boolean isCollection(String erasure) {
        return !erasure.endsWith("[]") && types.isSubtype(erasure, COLLECTION);
    }

    /**
     * BaseConfigurator.describe() (BaseConfigurator.java:60-223): public non-transient PersistedList fields, public
     * PersistedList getters, and every setXxx(one parameter) with a public getXxx()/isXxx() (boolean) getter, Maps left out.
     */
    Map<String, Attr> beanDescribe(TypeInfo target, Set<String> exclusions) {
        Map<String, Attr> attrs = new LinkedHashMap<>();
        // BaseConfigurator.java:66-82: Class.getFields() of a PersistedList type
        for (FieldInfo f : publicFields(target)) {
            if (exclusions.contains(f.name)) {
                continue;
            }
            RType ft = types.resolve(f.type, f.owner, null);
            if (types.isSubtype(ft.erasure(), PERSISTED_LIST)) {
                if (f.isTransient) {
                    continue;
                }
                Attr a = createAttribute(f.name, ft, target);
                if (a != null) {
                    a.from = "field";
                    a.declaredIn = f.owner;
                    a.line = f.line;
                    attrs.put(f.name, a);
                }
            }
        }
        List<MRef> methods = publicMethods(target);
        Map<String, List<MRef>> setters = new TreeMap<>();
        for (MRef r : methods) {
            MethodInfo m = r.m();
            // BaseConfigurator.java:90-111: getters of a PersistedList
            if (m.params.isEmpty() && m.name.startsWith("get") && m.name.length() > 3) {
                RType rt = returnType(m);
                if (types.isSubtype(rt.erasure(), PERSISTED_LIST)) {
                    String name = uncapitalize(m.name.substring(3));
                    if (exclusions.contains(name)) {
                        continue;
                    }
                    Attr a = createAttribute(name, rt, target);
                    if (a != null) {
                        a.from = "getter";
                        a.declaredIn = r.owner();
                        a.line = m.line;
                        flags(a, m);
                        attrs.putIfAbsent(name, a);
                    }
                    continue;
                }
            }
            if (m.params.size() == 1 && m.name.startsWith("set")) {
                String suffix = m.name.substring(3);
                if (exclusions.contains(uncapitalize(suffix))) {
                    continue;
                }
                setters.computeIfAbsent(suffix, k -> new ArrayList<>()).add(r);
            }
        }
        for (Map.Entry<String, List<MRef>> e : setters.entrySet()) {
            String suffix = e.getKey();
            String name = uncapitalize(suffix);
            MRef getter = findGetter(methods, suffix);
            if (getter == null) {
                continue;
            }
            RType getterType = returnType(getter.m());
            String getterRaw = getterType.erasure();
            List<MRef> candidates = new ArrayList<>();
            for (MRef s : e.getValue()) {
                String p = paramType(s.m(), 0).erasure();
                if (isSameType(p, getterRaw) || types.isSubtype(p, getterRaw) || types.isSubtype(getterRaw, p)) {
                    candidates.add(s);
                }
            }
            if (candidates.isEmpty()) {
                candidates = e.getValue();
            }
            MRef best = resolveBestSetter(candidates, getterRaw);
            RType type = paramType(best.m(), 0);
            // BaseConfigurator.java:154-172: an untyped collection setter takes the element type of a typed getter
            if (types.isSubtype(getterRaw, type.erasure()) || getterRaw.equals(type.erasure())) {
                String setterComponent = componentType(type, target);
                boolean setterIsUntyped = setterComponent == null || setterComponent.equals(OBJECT)
                        || setterComponent.equals(type.erasure());
                if (setterIsUntyped) {
                    String getterComponent = componentType(getterType, target);
                    boolean getterIsTyped = getterComponent != null && !getterComponent.equals(OBJECT)
                            && !getterComponent.equals(getterRaw);
                    if (getterIsTyped) {
                        type = new RType(getterType.raw, getterType.typeVar, getterType.args, getterType.dims, false, null);
                        typeRawOverride.put(type, paramType(best.m(), 0).erasure());
                    }
                }
            }
            String raw = typeRawOverride.getOrDefault(type, type.erasure());
            if (!raw.endsWith("[]") && types.isSubtype(raw, MAP)) {
                continue; // BaseConfigurator.java:174-178
            }
            Attr a = createAttribute(name, type, target);
            if (a == null) {
                continue;
            }
            a.from = "setter";
            a.declaredIn = best.owner();
            a.line = best.m().line;
            flags(a, best.m());
            Attr prev = attrs.get(name);
            if (prev == null || types.isSubtype(a.type, prev.type)) {
                attrs.put(name, a);
            }
        }
        return attrs;
    }

    /** The setter's erased type when the getter's generic type replaced its generic type (TypePair(getter type, setter raw)). */
    private final Map<RType, String> typeRawOverride = new java.util.IdentityHashMap<>();

    private void flags(Attr a, MethodInfo m) {
        a.deprecated = m.annotations.has("Deprecated");
        if (m.annotations.has("Restricted")) {
            List<String> r = new ArrayList<>();
            for (String v : m.annotations.get("Restricted")) {
                String n = v.replaceAll("\\.class$", "");
                r.add(n.substring(n.lastIndexOf('.') + 1));
            }
            a.restricted = r;
        }
    }

    private List<FieldInfo> publicFields(TypeInfo t) {
        List<FieldInfo> out = new ArrayList<>();
        Set<TypeInfo> seen = new HashSet<>();
        Set<String> names = new HashSet<>();
        collectFields(t, out, seen, names);
        return out;
    }

    private void collectFields(TypeInfo t, List<FieldInfo> out, Set<TypeInfo> seen, Set<String> names) {
        if (!seen.add(t)) {
            return;
        }
        for (FieldInfo f : t.fields) {
            if (f.isPublic && names.add(f.name)) {
                out.add(f);
            }
        }
        RType sc = types.superclass(t);
        if (sc != null && types.get(sc.raw) != null) {
            collectFields(types.get(sc.raw), out, seen, names);
        }
        for (RType i : types.interfaces(t)) {
            if (types.get(i.raw) != null) {
                collectFields(types.get(i.raw), out, seen, names);
            }
        }
    }

    /** BaseConfigurator.findGetter (BaseConfigurator.java:228-247). */
    private MRef findGetter(List<MRef> methods, String suffix) {
        for (MRef r : methods) {
            MethodInfo m = r.m();
            if (!m.params.isEmpty()) {
                continue;
            }
            if (m.name.equals("get" + suffix)) {
                return r;
            }
            if (m.name.equals("is" + suffix)) {
                String rt = returnType(m).erasure();
                if (rt.equals("boolean") || rt.equals("java.lang.Boolean")) {
                    return r;
                }
            }
        }
        return null;
    }

    /** BaseConfigurator.resolveBestSetter (BaseConfigurator.java:583-636); bridge methods do not exist in source. */
    private MRef resolveBestSetter(List<MRef> methods, String getterRaw) {
        if (methods.size() == 1) {
            return methods.get(0);
        }
        for (MRef m : methods) {
            if (isSameType(paramType(m.m(), 0).erasure(), getterRaw)) {
                return m;
            }
        }
        List<MRef> arrays = new ArrayList<>();
        for (MRef m : methods) {
            if (paramType(m.m(), 0).erasure().endsWith("[]")) {
                arrays.add(m);
            }
        }
        if (!arrays.isEmpty()) {
            methods = arrays;
        }
        MRef best = null;
        String bestType = null;
        for (MRef m : methods) {
            String cur = paramType(m.m(), 0).erasure();
            if (best == null) {
                best = m;
                bestType = cur;
                continue;
            }
            if (types.isSubtype(cur, bestType)) {
                best = m;
                bestType = cur;
            } else if (!types.isSubtype(bestType, cur)) {
                boolean currentMatch = types.isSubtype(cur, getterRaw);
                boolean bestMatch = types.isSubtype(bestType, getterRaw);
                boolean curIface = types.isInterface(cur);
                boolean bestIface = types.isInterface(bestType);
                if (currentMatch == bestMatch
                        && ((!curIface && bestIface) || (curIface == bestIface && cur.compareTo(bestType) < 0))) {
                    best = m;
                    bestType = cur;
                }
            }
        }
        return best;
    }

    private static final Map<String, String> WRAPPERS = Map.of(
            "int", "java.lang.Integer", "boolean", "java.lang.Boolean", "long", "java.lang.Long",
            "double", "java.lang.Double", "float", "java.lang.Float", "byte", "java.lang.Byte",
            "char", "java.lang.Character", "short", "java.lang.Short");

    /** BaseConfigurator.isSameType: equal, or a primitive and its wrapper. */
    private static boolean isSameType(String a, String b) {
        return a.equals(b) || b.equals(WRAPPERS.get(a)) || a.equals(WRAPPERS.get(b));
    }

    /**
     * BaseConfigurator.createAttribute (BaseConfigurator.java:256-290): multiple for arrays and Collections (type is
     * then the element type); DescribableList / PersistedList kept whatever their element; otherwise an abstract type
     * that is not Describable is left out (null).
     */
    Attr createAttribute(String name, RType type, TypeInfo target) {
        String raw = typeRawOverride.getOrDefault(type, type.erasure());
        boolean multiple = raw.endsWith("[]") || isCollection(raw);
        String c = multiple ? componentType(type, target) : raw;
        if (c == null) {
            return null; // CasC throws "Unable to detect type of attribute"
        }
        if (types.isSubtype(raw, DESCRIBABLE_LIST) || types.isSubtype(raw, PERSISTED_LIST)) {
            return new Attr(name, c, true);
        }
        if (!Types.PRIMITIVES.contains(c) && !c.endsWith("[]") && !types.isEnum(c) && types.isAbstract(c)
                && !types.isSubtype(c, DESCRIBABLE)) {
            return null;
        }
        return new Attr(name, c, multiple);
    }

    /** BaseConfigurator.getComponentType (BaseConfigurator.java:295-361), on resolved source types. */
    String componentType(RType type, TypeInfo target) {
        RType t = type;
        RType rawType = type.rawOnly();
        int guard = 0;
        while (t.isClass() && guard++ < 50) {
            RType sup = types.genericSuperclass(t);
            if (sup == null) {
                t = rawType;
                break;
            }
            t = sup;
        }
        if (t.isGenericArray()) {
            t = t.component();
        }
        while (t.isParameterized()) {
            RType pt = t;
            t = pt.args.get(0);
            if (t.wildcard) {
                t = t.upper == null ? RType.cls(OBJECT) : t.upper;
                if (t.isClass() && t.raw.equals(OBJECT) && t.dims == 0) {
                    t = pt.rawOnly();
                }
            }
        }
        String c = null;
        guard = 0;
        while (c == null) {
            if (t.wildcard) {
                return null;
            }
            if (t.typeVar == null) {
                c = t.raw + "[]".repeat(t.dims);
            } else {
                RType sc = target == null ? null : types.superclass(target);
                if (sc != null && sc.isParameterized() && guard++ < 5) {
                    t = sc.args.get(0);
                } else {
                    c = t.raw;
                }
            }
        }
        if (c.endsWith("[]")) {
            c = c.substring(0, c.length() - 2);
        }
        return c;
    }

    /** DataBoundConfigurator.getDataBoundConstructor: the public constructor annotated @DataBoundConstructor. */
    CtorInfo dataBoundConstructor(TypeInfo t) {
        for (CtorInfo c : t.ctors) {
            if (c.isPublic && c.annotations.has("DataBoundConstructor")) {
                return c;
            }
        }
        return null;
    }

    /**
     * DataBoundConfigurator.describe() (DataBoundConfigurator.java:277-298): the bean attributes plus the
     * @DataBoundConstructor parameters. A parameter wins over a setter of the same name: tryConstructor consumes
     * those keys before the attributes are applied (DataBoundConfigurator.java:225-228).
     */
    Map<String, Attr> dataBoundDescribe(TypeInfo t, Set<String> exclusions) {
        Map<String, Attr> attrs = beanDescribe(t, exclusions);
        CtorInfo c = dataBoundConstructor(t);
        if (c != null) {
            for (Param p : c.params) {
                Attr a = createAttribute(p.name, types.resolve(p.type, t, null), t);
                if (a == null) {
                    continue;
                }
                a.from = "constructor";
                a.declaredIn = t;
                a.line = p.line;
                attrs.put(p.name, a);
            }
        }
        return attrs;
    }

    // ================================================================== custom configurators

    /** A Configurator extension of a plugin or of CasC that takes over a type. */
    static final class Custom {
        TypeInfo cc;
        String target;
        /** bean (BaseConfigurator), dataBound, hetero, direct (implements Configurator itself). */
        String mode;
        boolean describeOverridden;
        boolean callsSuper;
        final List<Attr> added = new ArrayList<>();
        final Set<String> exclusions = new LinkedHashSet<>();
        String rootName;
        MethodInfo describe;
    }

    private static final Pattern RETURN_CLASS = Pattern.compile("return\\s+([\\w.]+(?:\\[\\])?)\\.class\\s*;");
    private static final Pattern RETURN_STRING = Pattern.compile("return\\s+\"([^\"]*)\"\\s*;");
    private static final Pattern SUPER_CLASS = Pattern.compile("(?:super|this)\\s*\\(\\s*([\\w.]+)\\.class\\s*[,)]");
    private static final Pattern NEW_ATTRIBUTE = Pattern.compile(
            "new\\s+(\\w*Attribute)\\s*(?:<[^(){};\"]*?>)?\\s*\\(\\s*\"([^\"]*)\"\\s*,\\s*([\\w.]+)\\.class");
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern CAN_CONFIGURE_NAME = Pattern.compile("getName\\(\\)\\s*\\.equals\\(\\s*\"([^\"]+)\"\\s*\\)");
    private static final Pattern CAN_CONFIGURE_CLASS = Pattern.compile("==\\s*([\\w.]+)\\.class");

    private List<Custom> customs;

    List<Custom> customConfigurators() {
        if (customs != null) {
            return customs;
        }
        customs = new ArrayList<>();
        for (TypeInfo t : sortedTypes()) {
            if (t.isAbstractType() || !t.annotations.has("Extension") || !types.isSubtype(t.fqcn, CONFIGURATOR)) {
                continue;
            }
            Custom c = new Custom();
            c.cc = t;
            MethodInfo gt = declared(t, "getTarget", 0, GENERIC_CONFIGURATORS);
            if (gt != null) {
                Matcher m = RETURN_CLASS.matcher(gt.body);
                if (m.find()) {
                    c.target = typeName(m.group(1), gt.owner);
                }
            }
            if (c.target == null) {
                for (CtorInfo ctor : t.ctors) {
                    Matcher m = SUPER_CLASS.matcher(ctor.body);
                    if (m.find()) {
                        c.target = typeName(m.group(1), t);
                        break;
                    }
                }
            }
            MethodInfo can = declared(t, "canConfigure", 1, GENERIC_CONFIGURATORS);
            if (can != null) {
                Matcher m = CAN_CONFIGURE_NAME.matcher(can.body);
                Matcher k = CAN_CONFIGURE_CLASS.matcher(can.body);
                if (m.find()) {
                    c.target = m.group(1);
                } else if (k.find()) {
                    c.target = typeName(k.group(1), can.owner);
                }
            }
            c.mode = "direct";
            for (String s : superclassChain(t)) {
                if (s.equals(DATABOUND_CONFIGURATOR)) {
                    c.mode = "dataBound";
                    break;
                } else if (s.equals(HETERO_CONFIGURATOR)) {
                    c.mode = "hetero";
                    break;
                } else if (s.equals(BASE_CONFIGURATOR)) {
                    c.mode = "bean";
                    break;
                }
            }
            MethodInfo d = declared(t, "describe", 0, GENERIC_CONFIGURATORS);
            if (d != null) {
                c.describe = d;
                c.describeOverridden = true;
                c.callsSuper = d.body.contains("super.describe()");
                Matcher m = NEW_ATTRIBUTE.matcher(d.body);
                while (m.find()) {
                    String kind = m.group(1);
                    boolean multiple = kind.equals("MultivaluedAttribute") || kind.equals("PersistedListAttribute")
                            || kind.equals("DescribableListAttribute");
                    Attr a = new Attr(m.group(2), typeName(m.group(3), d.owner), multiple);
                    a.from = "configurator";
                    a.declaredIn = d.owner;
                    a.line = d.bodyLine + count(d.body, m.start());
                    c.added.add(a);
                }
            }
            MethodInfo ex = declared(t, "exclusions", 0, GENERIC_CONFIGURATORS);
            if (ex != null) {
                Matcher m = STRING.matcher(ex.body);
                while (m.find()) {
                    c.exclusions.add(m.group(1));
                }
            }
            MethodInfo gn = declared(t, "getName", 0, GENERIC_CONFIGURATORS);
            if (gn != null) {
                Matcher m = RETURN_STRING.matcher(gn.body);
                if (m.find()) {
                    c.rootName = m.group(1);
                }
            }
            customs.add(c);
        }
        return customs;
    }

    Custom customFor(String fqcn) {
        for (Custom c : customConfigurators()) {
            if (fqcn.equals(c.target)) {
                return c;
            }
        }
        return null;
    }

    // ================================================================== what configures a type

    /** The configurator CasC picks for a type, and the attributes it accepts. */
    static final class Config {
        /** custom, configurable, descriptor, dataBound, heteroDescribable, primitive, enum, none. */
        String kind;
        Map<String, Attr> attrs = new LinkedHashMap<>();
        Custom custom;
        boolean scalar;
    }

    private final Map<String, Config> configs = new HashMap<>();

    /** DefaultConfiguratorRegistry.internalLookup (DefaultConfiguratorRegistry.java:86-143), in its order. */
    Config configFor(String fqcn) {
        Config cached = configs.get(fqcn);
        if (cached != null) {
            return cached;
        }
        Config c = new Config();
        configs.put(fqcn, c);
        TypeInfo t = types.get(fqcn);
        Custom custom = customFor(fqcn);
        if (custom != null) {
            c.kind = "custom";
            c.custom = custom;
            if (t != null) {
                Set<String> excl = custom.exclusions;
                Map<String, Attr> base = switch (custom.mode) {
                    case "bean" -> beanDescribe(t, excl);
                    case "dataBound" -> dataBoundDescribe(t, excl);
                    default -> new LinkedHashMap<>();
                };
                if (custom.mode.equals("hetero")) {
                    c.kind = "heteroDescribable";
                }
                if (custom.describeOverridden && !custom.callsSuper) {
                    base = new LinkedHashMap<>();
                }
                for (Attr a : custom.added) {
                    base.put(a.name, a);
                }
                c.attrs = base;
            }
            return c;
        }
        if (t == null) {
            c.kind = "external";
            return c;
        }
        if (types.isSubtype(fqcn, CONFIGURABLE)) {
            c.kind = "configurable";
            MethodInfo check = declared(t, "check", 1, Set.of());
            c.scalar = check != null && check.body.contains("asScalar()");
            return c;
        }
        if (types.isSubtype(fqcn, DESCRIPTOR)) {
            c.kind = "descriptor";
            c.attrs = beanDescribe(t, Set.of());
            return c;
        }
        if (dataBoundConstructor(t) != null) {
            c.kind = "dataBound";
            c.attrs = dataBoundDescribe(t, Set.of());
            return c;
        }
        if (t.isAbstractType() && types.isSubtype(fqcn, DESCRIBABLE)) {
            c.kind = "heteroDescribable";
            return c;
        }
        // (Extension.class.isAssignableFrom(clazz) never holds: hudson.Extension is an annotation type)
        if (t.isEnum()) {
            c.kind = "enum";
            c.scalar = true;
            return c;
        }
        if (t.members.containsKey("StaplerConverterImpl") || registeredConverters.contains(fqcn)) {
            c.kind = "primitive";
            c.scalar = true;
            return c;
        }
        c.kind = "none";
        return c;
    }

    // ================================================================== descriptors and symbols

    /** A concrete Descriptor class. */
    static final class Desc {
        TypeInfo d;
        /** Descriptor.clazz: the described class. */
        String klass;
        List<String> symbols = List.of();
        boolean extension;
    }

    private List<Desc> descriptors;

    List<Desc> descriptors() {
        if (descriptors != null) {
            return descriptors;
        }
        descriptors = new ArrayList<>();
        for (TypeInfo t : sortedTypes()) {
            if (t.isAbstractType() || t.isEnum() || !types.isSubtype(t.fqcn, DESCRIPTOR) || t.fqcn.equals(DESCRIPTOR)) {
                continue;
            }
            Desc d = new Desc();
            d.d = t;
            d.klass = klass(t);
            d.symbols = symbols(t);
            d.extension = t.annotations.has("Extension");
            descriptors.add(d);
        }
        return descriptors;
    }

    /**
     * Descriptor.clazz: the first super(X.class) up the descriptor's constructors; super(self()) (GlobalConfiguration)
     * makes the descriptor describe itself; the no-argument Descriptor() takes getClass().getEnclosingClass()
     * (Descriptor.java:277-295).
     */
    String klass(TypeInfo d) {
        TypeInfo cur = d;
        while (cur != null && !cur.fqcn.equals(DESCRIPTOR)) {
            for (CtorInfo c : cur.ctors) {
                if (c.body.matches("(?s).*super\\s*\\(\\s*self\\s*\\(\\s*\\)\\s*\\).*")) {
                    return d.fqcn;
                }
                Matcher m = SUPER_CLASS.matcher(c.body);
                if (m.find()) {
                    return typeName(m.group(1), cur);
                }
            }
            RType sc = types.superclass(cur);
            cur = sc == null ? null : types.get(sc.raw);
        }
        if (d.outer != null) {
            return d.outer.fqcn;
        }
        RType t = describedTypeArgument(d);
        return t == null ? null : t.raw;
    }

    /** The argument T of Descriptor&lt;T&gt; up the superclasses, type variables substituted. */
    RType describedTypeArgument(TypeInfo d) {
        Map<String, RType> subst = new HashMap<>();
        TypeInfo cur = d;
        int guard = 0;
        while (cur != null && guard++ < 30) {
            RType sc = types.superclass(cur);
            if (sc == null) {
                return null;
            }
            List<RType> args = new ArrayList<>();
            for (RType a : sc.args) {
                args.add(a.typeVar != null && subst.containsKey(a.typeVar) ? subst.get(a.typeVar) : a);
            }
            if (sc.raw.equals(DESCRIPTOR)) {
                return args.isEmpty() ? null : args.get(0);
            }
            TypeInfo next = types.get(sc.raw);
            if (next == null) {
                return null;
            }
            Map<String, RType> s2 = new HashMap<>();
            int i = 0;
            for (String tp : next.typeParams.keySet()) {
                if (i < args.size()) {
                    s2.put(tp, args.get(i));
                }
                i++;
            }
            subst = s2;
            cur = next;
        }
        return null;
    }

    /** @Symbol values of a class (DescribableAttribute.getSymbols reads them from descriptor.getClass()). */
    List<String> symbols(TypeInfo t) {
        List<String> out = new ArrayList<>();
        for (String v : t.annotations.get("Symbol")) {
            String s = constant(v, t);
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    /** A literal annotation value, or the string constant it names. */
    String constant(String v, TypeInfo scope) {
        if (!v.startsWith("@const:")) {
            return v;
        }
        String expr = v.substring("@const:".length());
        String owner = null;
        String field = expr;
        int dot = expr.lastIndexOf('.');
        if (dot > 0) {
            owner = typeName(expr.substring(0, dot), scope);
            field = expr.substring(dot + 1);
        }
        List<TypeInfo> where = new ArrayList<>();
        if (owner != null && types.get(owner) != null) {
            where.add(types.get(owner));
        } else {
            for (TypeInfo t = scope; t != null; t = t.outer) {
                where.add(t);
            }
        }
        for (TypeInfo t : where) {
            for (TypeInfo s = t; s != null; ) {
                for (FieldInfo f : s.fields) {
                    if (f.name.equals(field) && f.stringValue != null) {
                        return f.stringValue;
                    }
                }
                RType sc = types.superclass(s);
                s = sc == null ? null : types.get(sc.raw);
            }
        }
        System.err.println("warning: cannot resolve constant " + expr + " in " + scope.fqcn);
        return null;
    }

    /** All @Symbol values attached to a described class (from every descriptor describing it), in order. */
    Map<String, List<String>> symbolsByClass() {
        Map<String, List<String>> out = new HashMap<>();
        for (Desc d : descriptors()) {
            if (d.klass == null || d.symbols.isEmpty()) {
                continue;
            }
            List<String> l = out.computeIfAbsent(d.klass, k -> new ArrayList<>());
            for (String s : d.symbols) {
                if (!l.contains(s)) {
                    l.add(s);
                }
            }
        }
        return out;
    }

    // ================================================================== global configurations

    static final class Global {
        Desc desc;
        String categoryClass;
        List<String> names;
    }

    /**
     * GlobalConfigurationCategoryConfigurator.describe() (GlobalConfigurationCategoryConfigurator.java:83-94):
     * registered descriptors with a global config page, under their category, named by
     * DescriptorConfigurator.resolvePossibleNames (DescriptorConfigurator.java:65-86).
     */
    List<Global> globalConfigurations() {
        List<Global> out = new ArrayList<>();
        for (Desc d : descriptors()) {
            if (!d.extension || d.klass == null || !hasGlobalConfigPage(d)) {
                continue;
            }
            Global g = new Global();
            g.desc = d;
            g.categoryClass = category(d.d);
            g.names = possibleNames(d);
            out.add(g);
        }
        return out;
    }

    /** Descriptor.getGlobalConfigPage (Descriptor.java:893-895, 926-936), or the nearest override. */
    boolean hasGlobalConfigPage(Desc d) {
        MethodInfo m = declared(d.d, "getGlobalConfigPage", 0, Set.of());
        if (m != null && !m.owner.fqcn.equals(DESCRIPTOR)) {
            String body = m.body.replaceAll("\\s+", " ").trim();
            return !body.matches("\\{ ?return null; ?\\}");
        }
        // getViewPage(clazz, "global" + .jelly/.groovy): the view next to the described class or a superclass
        for (String c = d.klass; c != null; ) {
            if (globalViews.contains(c.replace('.', '/').replace('$', '/'))) {
                return true;
            }
            TypeInfo t = types.get(c);
            if (t == null) {
                break;
            }
            RType sc = types.superclass(t);
            c = sc == null ? null : sc.raw;
        }
        return false;
    }

    private static final Pattern CATEGORY_GET =
            Pattern.compile("GlobalConfigurationCategory\\s*\\.\\s*get\\s*\\(\\s*([\\w.]+?)(?:\\.class)?\\s*\\)");

    /** Descriptor.getCategory (Descriptor.java:904-906) or its nearest override returning GlobalConfigurationCategory.get(X.class). */
    String category(TypeInfo d) {
        MethodInfo m = declared(d, "getCategory", 0, Set.of());
        if (m != null && !m.owner.fqcn.equals(DESCRIPTOR)) {
            Matcher k = CATEGORY_GET.matcher(m.body);
            if (k.find()) {
                return typeName(k.group(1), m.owner);
            }
            System.err.println("warning: cannot read the category of " + d.fqcn + ", taking Unclassified");
        }
        return UNCLASSIFIED;
    }

    /** GlobalConfigurationCategoryConfigurator.getNames (GlobalConfigurationCategoryConfigurator.java:52-66). */
    List<String> categoryNames(String categoryClass) {
        TypeInfo t = types.get(categoryClass);
        if (t == null) {
            return List.of();
        }
        List<String> s = symbols(t);
        if (!s.isEmpty()) {
            return s;
        }
        String name = t.simpleName.replace("Global", "").replace("Configuration", "").replace("Category", "");
        return List.of(name.toLowerCase(java.util.Locale.ROOT));
    }

    /** DescriptorConfigurator.resolvePossibleNames (DescriptorConfigurator.java:65-86). */
    List<String> possibleNames(Desc d) {
        if (!d.symbols.isEmpty()) {
            return d.symbols;
        }
        TypeInfo k = types.get(d.klass);
        String fallback = lowerFirst(k != null ? k.simpleName : d.klass.substring(d.klass.lastIndexOf('.') + 1).replaceAll(".*\\$", ""));
        String derived = null;
        // extractDescriptorTypeParameter: the first parameterized superclass that is a Descriptor, its Class argument
        TypeInfo cur = d.d;
        while (cur != null) {
            RType sc = types.superclass(cur);
            if (sc == null) {
                break;
            }
            if (sc.isParameterized() && types.isSubtype(sc.raw, DESCRIPTOR)) {
                RType a = sc.args.get(0);
                if (a.typeVar == null && !a.wildcard) {
                    String simple = types.get(a.raw) != null ? types.get(a.raw).simpleName
                            : a.raw.substring(a.raw.lastIndexOf('.') + 1).replaceAll(".*\\$", "");
                    derived = lowerFirst(simple);
                    break;
                }
            }
            cur = types.get(sc.raw);
        }
        if (derived != null && !derived.equals(fallback)) {
            return List.of(fallback, derived);
        }
        return List.of(fallback);
    }

    // ================================================================== root elements

    static final class Root {
        String name;
        /** class, list, category, custom, descriptor. */
        String kind;
        String type;
        TypeInfo configurator;
        int line;
    }

    /**
     * RootElementConfigurator.all() (RootElementConfigurator.java:23-53): the RootElementConfigurator extensions, a
     * GlobalConfigurationCategoryConfigurator per category, and a DescriptorConfigurator per ManagementLink whose URL
     * name is a descriptor id.
     */
    List<Root> roots() {
        List<Root> out = new ArrayList<>();
        for (Custom c : customConfigurators()) {
            if (!types.isSubtype(c.cc.fqcn, ROOT_CONFIGURATOR) || c.rootName == null) {
                continue;
            }
            Root r = new Root();
            r.name = c.rootName;
            r.configurator = c.cc;
            r.line = c.cc.line;
            MethodInfo configure = declared(c.cc, "configure", 2, GENERIC_CONFIGURATORS);
            boolean ownConfigure = configure != null && configure.params.get(0).type.name.endsWith("CNode");
            if (c.describe != null && c.added.size() == 1 && c.added.get(0).name.isEmpty() && c.added.get(0).multiple) {
                r.kind = "list";
                r.type = c.added.get(0).type;
            } else if (ownConfigure) {
                r.kind = "custom";
            } else {
                r.kind = "class";
                r.type = c.target;
            }
            out.add(r);
        }
        for (TypeInfo t : sortedTypes()) {
            if (t.isAbstractType() || !t.annotations.has("Extension") || !types.isSubtype(t.fqcn, CATEGORY)) {
                continue;
            }
            List<String> names = categoryNames(t.fqcn);
            if (names.isEmpty()) {
                continue;
            }
            Root r = new Root();
            r.name = names.get(0);
            r.kind = "category";
            r.type = t.fqcn;
            r.configurator = t;
            r.line = t.line;
            out.add(r);
        }
        for (TypeInfo t : sortedTypes()) {
            if (t.isAbstractType() || !t.annotations.has("Extension") || !types.isSubtype(t.fqcn, MANAGEMENT_LINK)) {
                continue;
            }
            MethodInfo m = declared(t, "getUrlName", 0, Set.of());
            if (m == null) {
                continue;
            }
            Matcher k = RETURN_STRING.matcher(m.body);
            if (!k.find()) {
                continue;
            }
            String url = k.group(1);
            for (Desc d : descriptors()) {
                if (!d.extension || d.klass == null) {
                    continue;
                }
                String simple = d.klass.substring(d.klass.lastIndexOf('.') + 1);
                simple = simple.substring(simple.lastIndexOf('$') + 1);
                if (url.equals(d.klass) || url.equals(simple)) {
                    Root r = new Root();
                    r.name = possibleNames(d).get(0);
                    r.kind = "descriptor";
                    r.type = d.d.fqcn;
                    r.configurator = t;
                    r.line = t.line;
                    out.add(r);
                }
            }
        }
        out.sort(Comparator.comparing(r -> r.name));
        return out;
    }

    // ================================================================== helpers

    private List<TypeInfo> sorted;

    List<TypeInfo> sortedTypes() {
        if (sorted == null) {
            sorted = new ArrayList<>(types.byFqcn.values());
            sorted.sort(Comparator.comparing(t -> t.fqcn));
        }
        return sorted;
    }

    /** Superclass names of t, nearest first. */
    List<String> superclassChain(TypeInfo t) {
        List<String> out = new ArrayList<>();
        TypeInfo cur = t;
        Set<String> seen = new HashSet<>();
        while (cur != null) {
            RType sc = types.superclass(cur);
            if (sc == null || !seen.add(sc.raw)) {
                break;
            }
            out.add(sc.raw);
            cur = types.get(sc.raw);
        }
        return out;
    }

    /** The nearest declaration of a method (by name and arity) in t and its superclasses, stopping at the given classes. */
    MethodInfo declared(TypeInfo t, String name, int arity, Set<String> stopAt) {
        TypeInfo cur = t;
        Set<TypeInfo> seen = new HashSet<>();
        while (cur != null && seen.add(cur) && !stopAt.contains(cur.fqcn)) {
            for (MethodInfo m : cur.methods) {
                if (m.name.equals(name) && m.params.size() == arity && !m.isAbstract && !m.generated) {
                    return m;
                }
            }
            RType sc = types.superclass(cur);
            cur = sc == null ? null : types.get(sc.raw);
        }
        return null;
    }

    String typeName(String written, TypeInfo scope) {
        String w = written;
        int dims = 0;
        while (w.endsWith("[]")) {
            w = w.substring(0, w.length() - 2);
            dims++;
        }
        if (Types.PRIMITIVES.contains(w)) {
            return written;
        }
        return types.resolveName(w, scope) + "[]".repeat(dims);
    }

    static int count(String s, int end) {
        int n = 0;
        for (int i = 0; i < end && i < s.length(); i++) {
            if (s.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    /** StringUtils.uncapitalize. */
    static String uncapitalize(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    static String lowerFirst(String s) {
        return uncapitalize(s);
    }
}
