package dev.fwframework.cascschema;

import dev.fwframework.cascschema.Casc.Attr;
import dev.fwframework.cascschema.Casc.Config;
import dev.fwframework.cascschema.Casc.Global;
import dev.fwframework.cascschema.Casc.Root;
import dev.fwframework.cascschema.Model.FileCtx;
import dev.fwframework.cascschema.Model.MethodInfo;
import dev.fwframework.cascschema.Model.Source;
import dev.fwframework.cascschema.Model.TypeInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes casc-schema.json: what configuration-as-code accepts, derived from the sources of Jenkins core and the
 * pinned plugins.
 *
 * <pre>
 * CascSchemaGenerator OUTPUT.json
 *     --source ID VERSION REPOSITORY_URL TAG COMMIT EXPORT_DIR [CODE_ROOT...]
 *     [--source ...]
 * </pre>
 *
 * CODE_ROOT is a directory of .java/.groovy files relative to EXPORT_DIR (e.g. core/src/main/java); the sibling
 * "resources" directory is read for the global.jelly/global.groovy views and, for the permission groups' titles,
 * Messages.properties (see {@link Permissions}). Types declared in several sources are
 * taken from the first source given. A source without code roots (an aggregator plugin) is only recorded.
 */
public final class CascSchemaGenerator {
    static final String GENERATOR = "tools/casc-schema (run: bash tools/casc-schema/generate.sh)";

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: CascSchemaGenerator OUTPUT.json --source ID VERSION URL TAG COMMIT DIR [CODE_ROOT...] [--source ...]");
            System.exit(2);
        }
        Path output = Paths.get(args[0]);
        List<Source> sources = new ArrayList<>();
        for (int i = 1; i < args.length; ) {
            if (!args[i].equals("--source") || i + 7 > args.length) {
                throw new IllegalArgumentException("expected --source ID VERSION URL TAG COMMIT DIR [CODE_ROOT...] at " + args[i]);
            }
            List<String> roots = new ArrayList<>();
            int j = i + 7;
            while (j < args.length && !args[j].equals("--source")) {
                roots.add(args[j++]);
            }
            sources.add(new Source(args[i + 1], args[i + 2], args[i + 3], args[i + 4], args[i + 5], args[i + 6], roots));
            i = j;
        }
        String json = new CascSchemaGenerator().generate(sources);
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, json, StandardCharsets.UTF_8);
        System.err.println("wrote " + output + " (" + json.length() + " bytes)");
    }

    private final Types types = new Types();
    private final Map<FileCtx, TypeInfo> firstTypeOfFile = new LinkedHashMap<>();
    private final Set<String> globalViews = new TreeSet<>();

    String generate(List<Source> sources) throws IOException {
        JavaReader java = new JavaReader();
        GroovyReader groovy = new GroovyReader();
        for (Source s : sources) {
            Path root = Paths.get(s.root);
            for (String codeRoot : s.codeRoots) {
                Path dir = root.resolve(codeRoot);
                if (!Files.isDirectory(dir)) {
                    throw new IOException("no directory " + dir + " in source " + s.id);
                }
                List<Path> files;
                try (Stream<Path> w = Files.walk(dir)) {
                    files = w.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".groovy"))
                            .sorted()
                            .toList();
                }
                for (Path f : files) {
                    String rel = root.relativize(f).toString().replace('\\', '/');
                    if (f.toString().endsWith(".java")) {
                        if (f.getFileName().toString().equals("package-info.java") || f.getFileName().toString().equals("module-info.java")) {
                            continue;
                        }
                        java.read(s, f, rel, this::add);
                    } else {
                        groovy.read(s, f, rel, this::add);
                    }
                }
                Path resources = dir.resolveSibling("resources");
                if (Files.isDirectory(resources)) {
                    try (Stream<Path> w = Files.walk(resources)) {
                        w.filter(p -> {
                            String n = p.getFileName().toString();
                            return n.equals("global.jelly") || n.equals("global.groovy");
                        }).forEach(p -> globalViews.add(resources.relativize(p.getParent()).toString().replace('\\', '/')));
                    }
                }
            }
        }
        System.err.println("read " + types.byFqcn.size() + " types");
        Casc casc = new Casc(types, globalViews, registeredConverters());
        Permissions permissions = new Permissions(types, sources);
        Map<String, Object> permissionsOut = permissions.derive();
        permissions.noteOtherCreations(firstTypeOfFile.entrySet());
        int names = 0;
        for (Object g : permissionsOut.values()) {
            names += ((Map<?, ?>) ((Map<?, ?>) g).get("names")).size();
        }
        System.err.println(permissionsOut.size() + " permission groups, " + names + " permissions, " + permissions.notes().size() + " permission notes");
        return render(sources, casc, permissionsOut, permissions.notes());
    }

    private void add(TypeInfo t) {
        types.add(t);
        firstTypeOfFile.putIfAbsent(t.file, t);
    }

    /** Stapler.CONVERT_UTILS.register(converter, X.class) calls: X is then a scalar for Stapler (and CasC's PrimitiveConfigurator). */
    private Set<String> registeredConverters() {
        Set<String> out = new TreeSet<>();
        for (Map.Entry<FileCtx, TypeInfo> e : firstTypeOfFile.entrySet()) {
            String text = String.join("\n", e.getKey().lines);
            int at = 0;
            while ((at = text.indexOf("CONVERT_UTILS.register(", at)) >= 0) {
                int open = at + "CONVERT_UTILS.register".length();
                int depth = 0;
                int lastComma = -1;
                int end = -1;
                for (int i = open; i < text.length(); i++) {
                    char c = text.charAt(i);
                    if (c == '(' || c == '{' || c == '[') {
                        depth++;
                    } else if (c == ')' || c == '}' || c == ']') {
                        depth--;
                        if (depth == 0) {
                            end = i;
                            break;
                        }
                    } else if (c == ',' && depth == 1) {
                        lastComma = i;
                    }
                }
                at = open;
                if (end < 0 || lastComma < 0) {
                    continue;
                }
                String arg = text.substring(lastComma + 1, end).trim();
                if (arg.endsWith(".class")) {
                    out.add(types.resolveName(arg.substring(0, arg.length() - ".class".length()), e.getValue()));
                }
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ output

    private String render(List<Source> sources, Casc casc, Map<String, Object> permissions, List<String> permissionNotes) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("generator", GENERATOR);
        List<Object> srcs = new ArrayList<>();
        for (Source s : sources) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", s.id);
            m.put("version", s.version);
            m.put("repository", s.repository);
            m.put("tag", s.tag);
            m.put("commit", s.commit);
            m.put("paths", s.codeRoots);
            srcs.add(m);
        }
        doc.put("sources", srcs);
        List<String> notes = new ArrayList<>(NOTES);
        notes.addAll(permissionNotes);
        doc.put("notes", notes);

        // roots
        List<Root> roots = casc.roots();
        Map<String, Object> rootsOut = new TreeMap<>();
        Map<String, String> categoryRoot = new TreeMap<>();
        Deque<String> queue = new ArrayDeque<>();
        for (Root r : roots) {
            Map<String, Object> m = new TreeMap<>();
            m.put("kind", r.kind);
            switch (r.kind) {
                case "class", "descriptor" -> {
                    m.put("class", r.type);
                    queue.add(r.type);
                }
                case "list" -> {
                    m.put("type", r.type);
                    queue.add(r.type);
                    List<String> extra = extraEntryKeys(r.configurator);
                    if (!extra.isEmpty()) {
                        m.put("specialEntries", extra);
                    }
                }
                case "category" -> {
                    m.put("class", r.type);
                    categoryRoot.put(r.type, r.name);
                }
                default -> {}
            }
            m.put("configurator", Map.of(
                    "class", r.configurator.fqcn,
                    "source", r.configurator.file.source.id,
                    "file", r.configurator.file.path,
                    "line", r.configurator.line));
            if (rootsOut.containsKey(r.name)) {
                System.err.println("warning: two root elements named " + r.name);
            }
            rootsOut.put(r.name, m);
        }
        doc.put("roots", rootsOut);
        doc.put("rootKeyPrefixesIgnored", ignoredRootPrefixes());
        doc.put("defaultPolicy", defaultPolicy());

        // global configurations
        Map<String, Global> globals = new TreeMap<>();
        for (Global g : casc.globalConfigurations()) {
            String root = categoryRoot.get(g.categoryClass);
            if (root == null) {
                System.err.println("warning: " + g.desc.d.fqcn + " is in an unregistered category " + g.categoryClass);
                continue;
            }
            globals.put(g.desc.d.fqcn, g);
            queue.add(g.desc.d.fqcn);
        }

        // reachability: attribute types, then the implementations of every abstract Describable reached
        Set<String> reachable = new LinkedHashSet<>();
        while (!queue.isEmpty()) {
            String fqcn = queue.poll();
            TypeInfo t = types.get(fqcn);
            if (t == null || !reachable.add(fqcn)) {
                continue;
            }
            Config c = casc.configFor(fqcn);
            for (Attr a : c.attrs.values()) {
                if (types.get(a.type) != null) {
                    queue.add(a.type);
                }
            }
            if (c.kind.equals("heteroDescribable")) {
                // every implementation below it, through concrete intermediate classes too
                Deque<String> down = new ArrayDeque<>(types.directSubtypes(fqcn));
                Set<String> seen = new HashSet<>();
                while (!down.isEmpty()) {
                    String s = down.poll();
                    if (seen.add(s)) {
                        queue.add(s);
                        down.addAll(types.directSubtypes(s));
                    }
                }
            }
        }
        // the supertypes of what is reached (for assignability), up to the sources' edge
        Set<String> supertypeOnly = new TreeSet<>();
        Deque<String> up = new ArrayDeque<>(reachable);
        while (!up.isEmpty()) {
            for (String s : types.directSupertypes(up.poll())) {
                if (types.get(s) != null && !reachable.contains(s) && supertypeOnly.add(s)) {
                    up.add(s);
                }
            }
        }

        Map<String, List<String>> symbols = casc.symbolsByClass();
        Map<String, Object> classes = new TreeMap<>();
        for (String fqcn : reachable) {
            TypeInfo t = types.get(fqcn);
            Map<String, Object> m = classHeader(t, symbols);
            Config c = casc.configFor(fqcn);
            m.put("configurator", c.kind);
            if (c.custom != null) {
                m.put("customConfigurator", Map.of(
                        "class", c.custom.cc.fqcn,
                        "source", c.custom.cc.file.source.id,
                        "file", c.custom.cc.file.path,
                        "line", c.custom.cc.line));
            }
            if (c.scalar && !t.isEnum()) {
                m.put("scalar", true);
            }
            Global g = globals.get(fqcn);
            if (g != null) {
                m.put("category", categoryRoot.get(g.categoryClass));
                m.put("names", g.names);
            }
            Map<String, Object> attrs = new TreeMap<>();
            for (Attr a : c.attrs.values()) {
                Map<String, Object> am = new TreeMap<>();
                am.put("type", a.type);
                am.put("multiple", a.multiple);
                am.put("from", a.from);
                am.put("line", a.line);
                if (a.declaredIn != null && a.declaredIn != t) {
                    am.put("declaredIn", a.declaredIn.fqcn);
                    am.put("file", a.declaredIn.file.path);
                    if (a.declaredIn.file.source != t.file.source) {
                        am.put("source", a.declaredIn.file.source.id);
                    }
                }
                if (a.deprecated) {
                    am.put("deprecated", true);
                }
                if (!a.restricted.isEmpty()) {
                    am.put("restricted", a.restricted);
                }
                attrs.put(a.name, am);
            }
            m.put("attributes", attrs);
            classes.put(fqcn, m);
        }
        for (String fqcn : supertypeOnly) {
            Map<String, Object> m = classHeader(types.get(fqcn), symbols);
            m.put("supertypeOnly", true);
            m.put("attributes", Map.of());
            classes.put(fqcn, m);
        }
        doc.put("classes", classes);
        doc.put("permissions", permissions);
        System.err.println(reachable.size() + " classes reached, " + supertypeOnly.size() + " supertypes listed");
        return Json.write(doc);
    }

    private Map<String, Object> classHeader(TypeInfo t, Map<String, List<String>> symbols) {
        Map<String, Object> m = new TreeMap<>();
        m.put("source", t.file.source.id);
        m.put("file", t.file.path);
        m.put("line", t.line);
        m.put("kind", t.isEnum() ? "enum" : t.isInterface() ? "interface" : t.isAbstract ? "abstract" : "class");
        m.put("supertypes", types.directSupertypes(t.fqcn));
        m.put("symbols", symbols.getOrDefault(t.fqcn, List.of()));
        m.put("simpleName", t.simpleName);
        if (t.isEnum()) {
            m.put("enumConstants", t.enumConstants);
        }
        return m;
    }

    private static final Pattern KEY_EQUALS = Pattern.compile("getKey\\(\\)\\s*\\.equals\\(\\s*\"([^\"]+)\"\\s*\\)");

    /** Keys a list root handles itself before the element type (job-dsl's SeedJobConfigurator: "providedEnv"). */
    private List<String> extraEntryKeys(TypeInfo configurator) {
        Set<String> out = new TreeSet<>();
        for (MethodInfo m : configurator.methods) {
            Matcher k = KEY_EQUALS.matcher(m.body);
            while (k.find()) {
                out.add(k.group(1));
            }
        }
        return new ArrayList<>(out);
    }

    /** ConfigurationAsCode.isNotAliasEntry: root keys with these prefixes are not configuration. */
    private List<String> ignoredRootPrefixes() {
        TypeInfo t = types.get("io.jenkins.plugins.casc.ConfigurationAsCode");
        List<String> out = new ArrayList<>();
        if (t != null) {
            for (MethodInfo m : t.methodsNamed("isNotAliasEntry")) {
                Matcher k = Pattern.compile("startsWith\\(\\s*\"([^\"]+)\"\\s*\\)").matcher(m.body);
                while (k.find()) {
                    out.add(k.group(1));
                }
            }
        }
        return out;
    }

    /** The initial deprecation/restriction/unknown policies of io.jenkins.plugins.casc.ConfigurationContext. */
    private Map<String, Object> defaultPolicy() {
        Map<String, Object> out = new TreeMap<>();
        TypeInfo t = types.get("io.jenkins.plugins.casc.ConfigurationContext");
        if (t != null) {
            String text = String.join("\n", t.file.lines);
            Matcher k = Pattern.compile("private\\s+(Deprecation|Restriction|Unknown)\\s+\\w+\\s*=\\s*\\1\\.(\\w+)\\s*;").matcher(text);
            while (k.find()) {
                String key = switch (k.group(1)) {
                    case "Deprecation" -> "deprecated";
                    case "Restriction" -> "restricted";
                    default -> "unknown";
                };
                out.put(key, k.group(2));
            }
        }
        return out;
    }

    static final List<String> NOTES = List.of(
            "Derived from the sources listed; nothing here is written by hand. Each class is keyed by its binary name (nested classes with $).",
            "configurator: which CasC Configurator takes the class (DefaultConfiguratorRegistry.internalLookup order): custom (a Configurator extension: customConfigurator names it; its describe()/exclusions() were read from its source, e.g. JenkinsConfigurator, matrix-auth's ProjectMatrixAuthorizationStrategyConfigurator), configurable (io.jenkins.plugins.casc.Configurable; scalar: true when it reads one string), descriptor (DescriptorConfigurator), dataBound (DataBoundConfigurator: @DataBoundConstructor parameters plus bean attributes), heteroDescribable (abstract Describable: a value is a symbol, or a one-key mapping symbol -> attributes of the implementation), primitive (a Stapler converter: configured from one string; scalar: true), enum, none (CasC cannot configure it), external (not in the sources).",
            "attributes: flattened like Class.getMethods(); type is the element type when multiple (arrays, Collections, PersistedList/DescribableList); from: constructor, setter, field (public PersistedList field), getter (public PersistedList getter), configurator (added by a custom configurator's describe()). declaredIn/file name the declaring class when inherited.",
            "deprecated (@Deprecated setter or getter) and restricted (@Restricted setter or getter, the restriction classes' simple names) attributes are rejected under defaultPolicy (deprecated/restricted: reject) unless the restriction is None (or Beta with restricted: beta).",
            "symbols: the @Symbol values of the class's descriptor(s), first preferred; CasC also accepts the simple-name fallbacks of DescribableAttribute.getSymbols, which the consumer derives from simpleName and the attribute's type. Symbols, attribute names and root names are matched case-insensitively by CasC.",
            "Global configurations (registered descriptors with a global config page) carry category (the root they appear under) and names (first preferred, others accepted with a warning).",
            "supertypeOnly: listed only so that assignability can be decided; its attributes are not derived (attributes is left empty).",
            "permissions: the permissions that exist in the sources, keyed as matrix-auth's PermissionFinder resolves a \"Group/Name\" string (entries[].user|group|userOrGroup.permissions, PermissionDefinition.StaplerConverterImpl -> AuthorizationContainer.parsePermission: Permission.fromId(s), else PermissionFinder.findPermission(s)): the key is the group's id (PermissionGroup.getId(): the English text of its title, or the id given to the three-argument constructor), its names the permissions' names; matching is exact (String.equals). Per group: owner (the owner class, binary name), source/file/line/field (the PermissionGroup field), aliases (other fields naming it), title (the Messages key and file, or literal: true; english is its Locale.ENGLISH text), names. Per permission: id (owner + \".\" + name, which Permission.fromId also accepts), source/file/line/field (the Permission field), aliases, impliedBy (the id of the implying permission), enabledWhen (the source text of the enable argument when it is not the literal true: the permission is disabled while it is false, and matrix-auth's AuthorizationContainer.hasPermission then skips the grants of it and checks only the permissions that imply it). Only the groups PermissionFinder can match are listed: one per owner, the first of PermissionGroup.getAll() order (owner hudson.model.Hudson first, then by owner class name) per id, none owned by hudson.security.Permission. A group exists at run time once its declaring class is initialized; the ones here are core's and initialized at startup. Permissions of plugins outside the sources (e.g. credentials) are not listed. The notes starting with \"permissions:\" say what was left out.");
}
