package dev.fwframework.cascschema;

import dev.fwframework.cascschema.Model.Expr;
import dev.fwframework.cascschema.Model.FieldInfo;
import dev.fwframework.cascschema.Model.FileCtx;
import dev.fwframework.cascschema.Model.Source;
import dev.fwframework.cascschema.Model.TypeInfo;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The permissions that exist in the sources, keyed as matrix-auth 3.2.8 resolves the "Group/Name" strings of
 * {@code jenkins.authorizationStrategy.projectMatrix.entries[].<user|group|userOrGroup>.permissions}.
 *
 * <p>How those strings are resolved (matrix-auth tag matrix-auth-3.2.8, Jenkins core tag jenkins-2.568.2):
 * <ul>
 * <li>matrix-auth {@code src/main/java/org/jenkinsci/plugins/matrixauth/integrations/casc/PermissionDefinition.java}
 *     94-96: CasC converts each string with {@code AuthorizationContainer.parsePermission(String)}
 *     ({@code src/main/java/org/jenkinsci/plugins/matrixauth/AuthorizationContainer.java} 221-232): first
 *     {@code Permission.fromId(s)}, then {@code PermissionFinder.findPermission(s)}, else "no such permission".</li>
 * <li>matrix-auth {@code src/main/java/org/jenkinsci/plugins/matrixauth/integrations/PermissionFinder.java}
 *     {@code findPermissionId} 63-79: the string must match {@code ^([^/]+)/(.+)$} (44); it walks
 *     {@code PermissionGroup.getAll()} in order, skips the groups whose owner is {@code Permission.class} (70-72),
 *     and the first group with {@code pg.getId().equals(group)} (73) gives {@code pg.owner.getName() + "." + name}
 *     (74), which {@code findPermission} (52-55) hands to {@code Permission.fromId}.</li>
 * <li>core {@code core/src/main/java/hudson/security/PermissionGroup.java}: {@code PermissionGroup(Class owner,
 *     Localizable title)} 63-65 sets the id to {@code title.toString(Locale.ENGLISH)}; {@code PermissionGroup(String
 *     id, Class owner, Localizable title)} 74-79 takes the id as given; {@code getId()} 85-87 returns it.
 *     {@code getAll()} 173-175 copies the sorted set {@code PERMISSIONS} (194), ordered by {@code compareTo} 129-144:
 *     owner {@code Hudson.class} first, then by owner class name. {@code get(Class owner)} 182-189, {@code
 *     find(name)} 121-127 (by {@link String#equals} on the permission's name). A second group for the same owner
 *     throws (162-166).</li>
 * <li>core {@code core/src/main/java/hudson/security/Permission.java}: the constructors 142-195 ({@code (group,
 *     name, description, impliedBy, enable, scopes[])} 142-158 is the canonical one; {@code (group, name,
 *     description, impliedBy, scope)} 160-164, {@code (group, name, description, impliedBy, enable)} 171-173,
 *     {@code (group, name, description, impliedBy)} 180-182, {@code (group, name, impliedBy)} 189-191, {@code
 *     (group, name)} 193-195 are enabled unless the {@code enable} argument says otherwise); the permission's
 *     owner is its group's owner (147) and its id {@code owner.getName() + '.' + name} (154, {@code getId()}
 *     218-223). {@code fromId} 240-253 splits at the last '.', loads the owner class and returns {@code
 *     PermissionGroup.get(owner).find(name)}.</li>
 * <li>the English title: org.jvnet.localizer's {@code Localizable.toString(Locale)} is {@code
 *     MessageFormat.format(bundle.getString(key), args)}; {@code ResourceBundleHolder.get(Locale.ENGLISH)} reads
 *     {@code Messages_en.properties} beside the generated {@code Messages} class if present, else (its parent, the
 *     root locale) {@code Messages.properties}, as a {@code PropertyResourceBundle} (UTF-8, ISO-8859-1 if that
 *     fails). The generated {@code Messages._Foo_Bar()} returns the {@code Localizable} of key {@code Foo.Bar}
 *     (localizer's {@code GeneratorBase.toJavaIdentifier}: '.', '-' and '/' become '_').</li>
 * </ul>
 *
 * <p>What is read here: every field (of a type in the sources) initialized with {@code new PermissionGroup(…)} or
 * {@code new Permission(…)}, and every field of type Permission/PermissionGroup initialized with a reference to
 * another such field (an alias, e.g. {@code Jenkins.ADMINISTER = Permission.HUDSON_ADMINISTER}). Names are resolved
 * like javac would: the type and its supertypes, the enclosing types, static imports; qualified names through the
 * type index. What cannot be resolved is left out and said in {@link #notes()}.
 */
final class Permissions {
    static final String PERMISSION = "hudson.security.Permission";
    static final String PERMISSION_GROUP = "hudson.security.PermissionGroup";
    static final String PERMISSION_SCOPE = "hudson.security.PermissionScope";
    static final String NON_LOCALIZABLE = "jenkins.util.NonLocalizable";
    static final String HUDSON = "hudson.model.Hudson";

    private final Types types;
    private final List<Source> sources;
    private final List<String> notes = new ArrayList<>();

    /** A {@code new PermissionGroup(…)} field. */
    static final class Group {
        final FieldInfo field;
        String owner;
        String id;
        Map<String, Object> title;
        final List<FieldInfo> aliases = new ArrayList<>();
        final Map<String, Perm> perms = new TreeMap<>();

        Group(FieldInfo field) {
            this.field = field;
        }
    }

    /** A {@code new Permission(…)} field. */
    static final class Perm {
        final FieldInfo field;
        Group group;
        String name;
        String impliedBy;
        String enabledWhen;
        final List<FieldInfo> aliases = new ArrayList<>();

        Perm(FieldInfo field) {
            this.field = field;
        }

        String id() {
            return group.owner + "." + name;
        }
    }

    private final Map<FieldInfo, Group> groups = new LinkedHashMap<>();
    private final Map<FieldInfo, Perm> perms = new LinkedHashMap<>();

    Permissions(Types types, List<Source> sources) {
        this.types = types;
        this.sources = sources;
    }

    List<String> notes() {
        return notes;
    }

    /** The "permissions" object of casc-schema.json. */
    Map<String, Object> derive() {
        List<FieldInfo> aliasFields = new ArrayList<>();
        for (TypeInfo t : types.byFqcn.values()) {
            for (FieldInfo f : t.fields) {
                if (f.init == null) {
                    continue;
                }
                if (f.init.is("new")) {
                    String created = types.resolveName(f.init.text, t);
                    if (created.equals(PERMISSION_GROUP)) {
                        groups.put(f, new Group(f));
                    } else if (created.equals(PERMISSION)) {
                        perms.put(f, new Perm(f));
                    }
                } else if (f.init.is("name") && f.type.dims == 0) {
                    String declared = types.resolveName(f.type.name, t);
                    if (declared.equals(PERMISSION) || declared.equals(PERMISSION_GROUP)) {
                        aliasFields.add(f);
                    }
                }
            }
        }

        // groups: owner and id
        for (Group g : new ArrayList<>(groups.values())) {
            if (!describeGroup(g)) {
                groups.remove(g.field);
            }
        }
        // permissions: group, name, impliedBy, enabled
        for (Perm p : new ArrayList<>(perms.values())) {
            if (!describePermission(p)) {
                perms.remove(p.field);
            }
        }
        for (Perm p : perms.values()) {
            if (p.group.perms.containsKey(p.name)) {
                note("two permissions named " + p.name + " in the group " + p.group.owner + " (" + where(p.field)
                        + ", " + where(p.group.perms.get(p.name).field) + "): Jenkins refuses the second"
                        + " (PermissionGroup.add); the first read is listed");
                continue;
            }
            p.group.perms.put(p.name, p);
        }
        for (Perm p : perms.values()) {
            String implied = impliedBy(p);
            if (implied != null) {
                p.impliedBy = implied;
            }
        }
        // aliases
        for (FieldInfo f : aliasFields) {
            Object target = resolveConstant(f.init, f.owner, new HashSet<>());
            if (target instanceof Group g) {
                g.aliases.add(f);
            } else if (target instanceof Perm p) {
                p.aliases.add(f);
            } else if (target == null) {
                note("unresolved: " + fieldName(f) + " = " + f.init + " (" + where(f) + ") names no permission (group) field of the sources; left out");
            }
        }

        // one group per owner (PermissionGroup.register), in PermissionGroup.getAll() order; PermissionFinder's view
        Map<String, Group> byOwner = new TreeMap<>();
        for (Group g : groups.values()) {
            Group prev = byOwner.putIfAbsent(g.owner, g);
            if (prev != null) {
                note("two permission groups for the owner " + g.owner + " (" + where(prev.field) + ", " + where(g.field)
                        + "): Jenkins refuses the second (PermissionGroup.register); the first read is listed");
            }
        }
        List<Group> ordered = new ArrayList<>(byOwner.values());
        ordered.sort(Comparator.comparingInt((Group g) -> g.owner.equals(HUDSON) ? 0 : 1).thenComparing(g -> g.owner));
        Map<String, Object> out = new TreeMap<>();
        Map<String, Group> byId = new HashMap<>();
        for (Group g : ordered) {
            if (g.owner.equals(PERMISSION)) {
                note("the group " + fieldName(g.field) + " (id " + quote(g.id) + ", owner " + g.owner + ", " + where(g.field)
                        + ") is skipped by PermissionFinder (PermissionFinder.java 70-72), so it is not listed; its permissions "
                        + g.perms.keySet() + " are reachable only by their ids (" + g.owner + ".<Name>, through Permission.fromId)");
                continue;
            }
            Group first = byId.putIfAbsent(g.id, g);
            if (first != null) {
                note("the group " + fieldName(g.field) + " (owner " + g.owner + ", " + where(g.field) + ") has the id "
                        + quote(g.id) + " of the group owned by " + first.owner + ", which comes first in PermissionGroup.getAll()"
                        + " and is the one PermissionFinder matches; its permissions " + g.perms.keySet()
                        + " are reachable only by their ids (" + g.owner + ".<Name>)");
                continue;
            }
            out.put(g.id, render(g));
        }
        return out;
    }

    private Map<String, Object> render(Group g) {
        Map<String, Object> m = declaration(g.field, g.aliases);
        m.put("owner", g.owner);
        m.put("title", g.title);
        Map<String, Object> names = new TreeMap<>();
        for (Perm p : g.perms.values()) {
            Map<String, Object> pm = declaration(p.field, p.aliases);
            pm.put("id", p.id());
            if (p.impliedBy != null) {
                pm.put("impliedBy", p.impliedBy);
            }
            if (p.enabledWhen != null) {
                pm.put("enabledWhen", p.enabledWhen);
            }
            names.put(p.name, pm);
        }
        m.put("names", names);
        return m;
    }

    /** Where a group or permission is declared: its source, file, line, field and the fields that alias it. */
    private Map<String, Object> declaration(FieldInfo field, List<FieldInfo> aliases) {
        Map<String, Object> m = new TreeMap<>();
        m.put("source", field.owner.file.source.id);
        m.put("file", field.owner.file.path);
        m.put("line", field.line);
        m.put("field", fieldName(field));
        if (!aliases.isEmpty()) {
            m.put("aliases", names(aliases));
        }
        return m;
    }

    // ------------------------------------------------------------------ groups

    private boolean describeGroup(Group g) {
        FieldInfo f = g.field;
        List<Expr> args = f.init.args;
        Expr ownerArg;
        Expr titleArg;
        Expr idArg = null;
        if (args.size() == 2) {
            ownerArg = args.get(0);
            titleArg = args.get(1);
        } else if (args.size() == 3) {
            idArg = args.get(0);
            ownerArg = args.get(1);
            titleArg = args.get(2);
        } else {
            note("unresolved: " + fieldName(f) + " = " + f.init + " (" + where(f) + "): no PermissionGroup constructor takes " + args.size() + " arguments; left out");
            return false;
        }
        if (!ownerArg.is("class")) {
            note("unresolved: the owner of " + fieldName(f) + " (" + where(f) + ") is " + ownerArg + ", not a class literal; left out");
            return false;
        }
        g.owner = types.resolveName(ownerArg.text, f.owner);
        Map<String, Object> title = title(titleArg, f);
        if (title == null) {
            return false;
        }
        g.title = title;
        if (idArg != null) {
            String id = stringConstant(idArg, f.owner);
            if (id == null) {
                note("unresolved: the id of " + fieldName(f) + " (" + where(f) + ") is " + idArg + ", not a string constant; left out");
                return false;
            }
            g.id = id;
        } else {
            g.id = (String) title.get("english");
        }
        return true;
    }

    private static final Pattern LOCALIZABLE_CALL = Pattern.compile("(?:(.+)\\.)?(Messages)\\._(\\w+)");

    /** The title argument: {"english", "key", "file", "line", "source"} or {"english", "literal"}; null (noted) if unresolved. */
    private Map<String, Object> title(Expr e, FieldInfo f) {
        Map<String, Object> m = new TreeMap<>();
        if (e.is("new") && types.resolveName(e.text, f.owner).equals(NON_LOCALIZABLE) && e.args.size() == 1) {
            String s = stringConstant(e.args.get(0), f.owner);
            if (s != null) {
                m.put("english", s);
                m.put("literal", true);
                return m;
            }
        }
        Matcher k = e.is("call") && e.args.isEmpty() ? LOCALIZABLE_CALL.matcher(e.text) : null;
        if (k == null || !k.matches()) {
            note("unresolved: the title of " + fieldName(f) + " (" + where(f) + ") is " + e + ", neither Messages._Key() nor new NonLocalizable(\"…\"); left out");
            return null;
        }
        List<String> pkgs = messagesPackages(k.group(1), f.owner);
        for (String pkg : pkgs) {
            Bundle b = bundle(pkg, f.owner.file.source);
            if (b == null) {
                continue;
            }
            String method = k.group(3);
            String key = null;
            for (String candidate : b.props.stringPropertyNames()) {
                if (toJavaIdentifier(candidate).equals(method) && (key == null || candidate.compareTo(key) < 0)) {
                    key = candidate;
                }
            }
            if (key == null) {
                continue;
            }
            m.put("key", key);
            m.put("source", b.source.id);
            m.put("file", b.path);
            m.put("line", b.line(key));
            String value = b.props.getProperty(key);
            try {
                m.put("english", MessageFormat.format(value, new Object[0]));
            } catch (IllegalArgumentException x) {
                m.put("english", value);
            }
            return m;
        }
        note("unresolved: the title " + e + " of " + fieldName(f) + " (" + where(f) + "): no key for _" + k.group(3)
                + " in " + String.join(" or ", pkgs.stream().map(p -> p.replace('.', '/') + "/Messages[_en].properties").toList())
                + " of the sources; left out");
        return null;
    }

    /** Localizer's GeneratorBase.toJavaIdentifier: the method name of a key, less its leading '_'. */
    static String toJavaIdentifier(String key) {
        return key.replace('.', '_').replace('-', '_').replace('/', '_');
    }

    /** The packages the generated Messages class may be in: as qualified, single-imported, the file's, then on-demand imports. */
    private List<String> messagesPackages(String qualifier, TypeInfo scope) {
        List<String> out = new ArrayList<>();
        FileCtx file = scope.file;
        if (qualifier != null) {
            out.add(qualifier);
            return out;
        }
        String imp = file.singleImports.get("Messages");
        if (imp != null) {
            out.add(imp.substring(0, imp.lastIndexOf('.')));
            return out;
        }
        out.add(file.pkg);
        for (String star : file.starImports) {
            if (!star.equals("java.lang")) {
                out.add(star);
            }
        }
        return out;
    }

    static final class Bundle {
        final Source source;
        final String path;
        final Properties props;
        final String[] lines;

        Bundle(Source source, String path, Properties props, String[] lines) {
            this.source = source;
            this.path = path;
            this.props = props;
            this.lines = lines;
        }

        int line(String key) {
            String k = Pattern.quote(key.replace(":", "\\:").replace("=", "\\=").replace(" ", "\\ "));
            Pattern p = Pattern.compile("^\\s*" + k + "\\s*([=:\\s]|$)");
            for (int i = 0; i < lines.length; i++) {
                if (p.matcher(lines[i]).find()) {
                    return i + 1;
                }
            }
            return 0;
        }
    }

    private final Map<String, Bundle> bundles = new HashMap<>();

    /**
     * pkg/Messages_en.properties, else pkg/Messages.properties (ResourceBundleHolder.get(Locale.ENGLISH)), in the
     * resources beside a code root: of the referring source first, then of the others in order.
     */
    private Bundle bundle(String pkg, Source preferred) {
        List<Source> order = new ArrayList<>();
        order.add(preferred);
        for (Source s : sources) {
            if (s != preferred) {
                order.add(s);
            }
        }
        for (Source s : order) {
            for (String codeRoot : s.codeRoots) {
                Path root = Paths.get(s.root);
                Path resources = root.resolve(codeRoot).resolveSibling("resources");
                for (String name : List.of("Messages_en.properties", "Messages.properties")) {
                    Path p = pkg.isEmpty() ? resources.resolve(name) : resources.resolve(pkg.replace('.', '/')).resolve(name);
                    if (!Files.isRegularFile(p)) {
                        continue;
                    }
                    String rel = root.relativize(p).toString().replace('\\', '/');
                    String cacheKey = s.id + ":" + rel;
                    Bundle b = bundles.get(cacheKey);
                    if (b == null) {
                        b = load(s, rel, p);
                        bundles.put(cacheKey, b);
                    }
                    return b;
                }
            }
        }
        return null;
    }

    /** As PropertyResourceBundle(InputStream) reads it (Java 9+): UTF-8, else ISO-8859-1. */
    private static Bundle load(Source s, String rel, Path p) {
        try {
            byte[] bytes = Files.readAllBytes(p);
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes))
                        .toString();
            } catch (CharacterCodingException x) {
                text = new String(bytes, StandardCharsets.ISO_8859_1);
            }
            Properties props = new Properties();
            props.load(new StringReader(text));
            return new Bundle(s, rel, props, text.split("\n", -1));
        } catch (IOException x) {
            throw new IllegalStateException("cannot read " + p, x);
        }
    }

    // ------------------------------------------------------------------ permissions

    private boolean describePermission(Perm p) {
        FieldInfo f = p.field;
        List<Expr> args = f.init.args;
        if (args.size() < 2 || args.size() > 6) {
            note("unresolved: " + fieldName(f) + " = " + f.init + " (" + where(f) + "): no Permission constructor takes " + args.size() + " arguments; left out");
            return false;
        }
        Object g = resolveConstant(args.get(0), f.owner, new HashSet<>());
        if (!(g instanceof Group group) || !groups.containsKey(group.field)) {
            note("unresolved: the group " + args.get(0) + " of " + fieldName(f) + " (" + where(f) + ") is no permission group field of the sources; left out");
            return false;
        }
        String name = stringConstant(args.get(1), f.owner);
        if (name == null) {
            note("unresolved: the name " + args.get(1) + " of " + fieldName(f) + " (" + where(f) + ") is not a string constant; left out");
            return false;
        }
        p.group = group;
        p.name = name;
        // enable: (…, impliedBy, enable, scopes[]) 142; (…, impliedBy, enable) 171, told from (…, impliedBy, scope) 160 by its type
        Expr enable = null;
        if (args.size() == 6) {
            enable = args.get(4);
        } else if (args.size() == 5 && !isScope(args.get(4), f.owner)) {
            enable = args.get(4);
        }
        if (enable != null && !(enable.is("literal") && enable.text.equals("true"))) {
            p.enabledWhen = enable.source;
        }
        return true;
    }

    /** The impliedBy argument ((group, name, impliedBy) 189, else the fourth) as a permission id, or null. */
    private String impliedBy(Perm p) {
        FieldInfo f = p.field;
        List<Expr> args = f.init.args;
        Expr e = args.size() == 3 ? args.get(2) : args.size() >= 4 ? args.get(3) : null;
        if (e == null || (e.is("literal") && e.text.equals("null"))) {
            return null;
        }
        Object r = resolveConstant(e, f.owner, new HashSet<>());
        if (r instanceof Perm q && perms.containsKey(q.field)) {
            return q.id();
        }
        note("unresolved: impliedBy " + e + " of " + fieldName(f) + " (" + where(f) + ") is no permission field of the sources; impliedBy left out");
        return null;
    }

    private boolean isScope(Expr e, TypeInfo scope) {
        if (e.is("name")) {
            FieldInfo f = resolveField(e.text, scope);
            if (f != null) {
                return types.resolveName(f.type.name, f.owner).equals(PERMISSION_SCOPE) && f.type.dims == 0;
            }
            int dot = e.text.lastIndexOf('.');
            return dot > 0 && types.resolveName(e.text.substring(0, dot), scope).equals(PERMISSION_SCOPE);
        }
        return false;
    }

    // ------------------------------------------------------------------ names

    /** The Group or Perm a name (or a chain of aliases) denotes, or null. */
    private Object resolveConstant(Expr e, TypeInfo scope, Set<FieldInfo> seen) {
        if (!e.is("name")) {
            return null;
        }
        FieldInfo f = resolveField(e.text, scope);
        if (f == null || !seen.add(f)) {
            return null;
        }
        if (groups.containsKey(f)) {
            return groups.get(f);
        }
        if (perms.containsKey(f)) {
            return perms.get(f);
        }
        if (f.init != null && f.init.is("name")) {
            return resolveConstant(f.init, f.owner, seen);
        }
        return null;
    }

    private String stringConstant(Expr e, TypeInfo scope) {
        if (e.is("string")) {
            return e.text;
        }
        if (e.is("name")) {
            FieldInfo f = resolveField(e.text, scope);
            if (f != null && f.stringValue != null && f.isFinal) {
                return f.stringValue;
            }
        }
        return null;
    }

    /** The field a simple or qualified name denotes in scope, or null. */
    FieldInfo resolveField(String name, TypeInfo scope) {
        if (name.startsWith("this.")) {
            name = name.substring("this.".length());
        }
        int dot = name.lastIndexOf('.');
        if (dot < 0) {
            for (TypeInfo t = scope; t != null; t = t.outer) {
                FieldInfo f = findField(t, name, new HashSet<>());
                if (f != null) {
                    return f;
                }
            }
            FileCtx file = scope.file;
            String owner = file.staticImports.get(name);
            if (owner != null) {
                TypeInfo t = types.byCanonical.get(owner);
                if (t != null) {
                    return findField(t, name, new HashSet<>());
                }
            }
            for (String star : file.staticStarImports) {
                TypeInfo t = types.byCanonical.get(star);
                if (t != null) {
                    FieldInfo f = findField(t, name, new HashSet<>());
                    if (f != null) {
                        return f;
                    }
                }
            }
            return null;
        }
        String qualifier = name.substring(0, dot);
        String member = name.substring(dot + 1);
        TypeInfo t = types.get(types.resolveName(qualifier, scope));
        if (t == null) {
            // a field of a field (X.F.G) is not a constant reference here
            return null;
        }
        return findField(t, member, new HashSet<>());
    }

    /** A field of t, declared or inherited (superclass and interfaces). */
    private FieldInfo findField(TypeInfo t, String name, Set<TypeInfo> seen) {
        if (!seen.add(t)) {
            return null;
        }
        for (FieldInfo f : t.fields) {
            if (f.name.equals(name)) {
                return f;
            }
        }
        for (String s : types.directSupertypes(t.fqcn)) {
            TypeInfo st = types.get(s);
            if (st != null) {
                FieldInfo f = findField(st, name, seen);
                if (f != null) {
                    return f;
                }
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ elsewhere

    /**
     * Notes the permission (group) creations the generator does not resolve: those outside field initializers of
     * the declared Java types (FileCtx.otherCreations) and any in Groovy files (not read for this).
     */
    void noteOtherCreations(Iterable<Map.Entry<FileCtx, TypeInfo>> files) {
        Pattern groovyNew = Pattern.compile("\\bnew\\s+((?:[\\w$]+\\.)*Permission(?:Group)?)\\s*\\(");
        for (Map.Entry<FileCtx, TypeInfo> e : files) {
            FileCtx file = e.getKey();
            List<Map.Entry<String, Integer>> found = new ArrayList<>(file.otherCreations);
            if (file.groovy) {
                for (int i = 0; i < file.lines.length; i++) {
                    Matcher m = groovyNew.matcher(file.lines[i]);
                    while (m.find()) {
                        found.add(Map.entry(m.group(1), i + 1));
                    }
                }
            }
            for (Map.Entry<String, Integer> c : found) {
                String type = types.resolveName(c.getKey(), e.getValue());
                if (type.equals(PERMISSION) || type.equals(PERMISSION_GROUP)) {
                    note("unresolved: new " + c.getKey() + "(…) at " + file.source.id + ":" + file.path + ":" + c.getValue()
                            + " is not the initializer of a field of a declared Java type; left out");
                }
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    private void note(String s) {
        notes.add("permissions: " + s);
    }

    private static String fieldName(FieldInfo f) {
        return f.owner.canonical + "." + f.name;
    }

    private static List<String> names(List<FieldInfo> fs) {
        return new ArrayList<>(new TreeSet<>(fs.stream().map(Permissions::fieldName).toList()));
    }

    private static String where(FieldInfo f) {
        return f.owner.file.source.id + ":" + f.owner.file.path + ":" + f.line;
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }
}
