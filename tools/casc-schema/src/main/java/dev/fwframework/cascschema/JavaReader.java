package dev.fwframework.cascschema;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Modifier;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.AnnotationDeclaration;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.EnumConstantDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import com.github.javaparser.ast.type.ArrayType;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.PrimitiveType;
import com.github.javaparser.ast.type.Type;
import com.github.javaparser.ast.type.TypeParameter;
import com.github.javaparser.ast.type.WildcardType;
import dev.fwframework.cascschema.Model.Annotations;
import dev.fwframework.cascschema.Model.CtorInfo;
import dev.fwframework.cascschema.Model.Expr;
import dev.fwframework.cascschema.Model.FieldInfo;
import dev.fwframework.cascschema.Model.FileCtx;
import dev.fwframework.cascschema.Model.MethodInfo;
import dev.fwframework.cascschema.Model.Param;
import dev.fwframework.cascschema.Model.Source;
import dev.fwframework.cascschema.Model.TypeInfo;
import dev.fwframework.cascschema.Model.TypeRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** Reads Java compilation units into the {@link Model}. */
final class JavaReader {
    private final JavaParser parser;

    JavaReader() {
        ParserConfiguration cfg = new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_21)
                .setAttributeComments(false)
                .setCharacterEncoding(StandardCharsets.UTF_8);
        parser = new JavaParser(cfg);
    }

    /** Parses one file; every declared (non-local, non-anonymous) type is handed to sink. */
    void read(Source source, Path file, String relPath, Consumer<TypeInfo> sink) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        ParseResult<CompilationUnit> r = parser.parse(text);
        if (!r.getResult().isPresent() || !r.isSuccessful()) {
            System.err.println("warning: cannot parse " + source.id + ":" + relPath + ": " + r.getProblems());
            if (!r.getResult().isPresent()) {
                return;
            }
        }
        CompilationUnit cu = r.getResult().get();
        String pkg = cu.getPackageDeclaration().map(p -> p.getNameAsString()).orElse("");
        FileCtx ctx = new FileCtx(source, relPath, pkg, false, text);
        for (ImportDeclaration imp : cu.getImports()) {
            if (imp.isStatic()) {
                String name = imp.getNameAsString();
                if (imp.isAsterisk()) {
                    ctx.staticStarImports.add(name);
                } else {
                    int dot = name.lastIndexOf('.');
                    if (dot > 0) {
                        ctx.staticImports.put(name.substring(dot + 1), name.substring(0, dot));
                    }
                }
                continue;
            }
            String name = imp.getNameAsString();
            if (imp.isAsterisk()) {
                ctx.starImports.add(name);
            } else {
                ctx.singleImports.put(name.substring(name.lastIndexOf('.') + 1), name);
            }
        }
        ctx.starImports.add("java.lang");
        Set<ObjectCreationExpr> fieldInits = Collections.newSetFromMap(new IdentityHashMap<>());
        for (TypeDeclaration<?> td : cu.getTypes()) {
            readType(ctx, null, td, sink, fieldInits);
        }
        // the permission (group) creations that are not a declared type's field initializer
        for (ObjectCreationExpr o : cu.findAll(ObjectCreationExpr.class)) {
            String n = o.getType().getNameAsString();
            if ((n.equals("Permission") || n.equals("PermissionGroup")) && !fieldInits.contains(o)) {
                ctx.otherCreations.add(Map.entry(scopedName(o.getType()), line(o)));
            }
        }
    }

    private void readType(FileCtx ctx, TypeInfo outer, TypeDeclaration<?> td, Consumer<TypeInfo> sink, Set<ObjectCreationExpr> fieldInits) {
        TypeInfo t = new TypeInfo(ctx, outer, td.getNameAsString());
        if (outer != null) {
            outer.members.put(t.simpleName, t);
        }
        t.line = line(td.getName());
        t.isPublic = td.hasModifier(Modifier.Keyword.PUBLIC) || (outer != null && outer.isInterface());
        t.isStatic = td.hasModifier(Modifier.Keyword.STATIC) || (outer != null && outer.isInterface());
        t.isAbstract = td.hasModifier(Modifier.Keyword.ABSTRACT);
        readAnnotations(td, t.annotations);
        if (td instanceof ClassOrInterfaceDeclaration cid) {
            t.declKind = cid.isInterface() ? "interface" : "class";
            for (TypeParameter tp : cid.getTypeParameters()) {
                t.typeParams.put(tp.getNameAsString(), tp.getTypeBound().isEmpty() ? null : ref(tp.getTypeBound().get(0)));
            }
            if (cid.isInterface()) {
                for (ClassOrInterfaceType e : cid.getExtendedTypes()) {
                    t.interfaces.add(ref(e));
                }
            } else {
                if (!cid.getExtendedTypes().isEmpty()) {
                    t.superclass = ref(cid.getExtendedTypes().get(0));
                }
                for (ClassOrInterfaceType e : cid.getImplementedTypes()) {
                    t.interfaces.add(ref(e));
                }
            }
        } else if (td instanceof EnumDeclaration ed) {
            t.declKind = "enum";
            for (ClassOrInterfaceType e : ed.getImplementedTypes()) {
                t.interfaces.add(ref(e));
            }
            for (EnumConstantDeclaration c : ed.getEntries()) {
                t.enumConstants.add(c.getNameAsString());
            }
        } else if (td instanceof RecordDeclaration rd) {
            t.declKind = "record";
            for (TypeParameter tp : rd.getTypeParameters()) {
                t.typeParams.put(tp.getNameAsString(), tp.getTypeBound().isEmpty() ? null : ref(tp.getTypeBound().get(0)));
            }
            for (ClassOrInterfaceType e : rd.getImplementedTypes()) {
                t.interfaces.add(ref(e));
            }
        } else if (td instanceof AnnotationDeclaration) {
            t.declKind = "annotation";
        }
        sink.accept(t);
        boolean iface = t.isInterface();
        for (BodyDeclaration<?> member : td.getMembers()) {
            if (member instanceof TypeDeclaration<?> nested) {
                readType(ctx, t, nested, sink, fieldInits);
            } else if (member instanceof MethodDeclaration md) {
                MethodInfo m = new MethodInfo(t, md.getNameAsString());
                m.returnType = ref(md.getType());
                m.isStatic = md.isStatic();
                m.isPublic = md.isPublic() || (iface && !md.isPrivate());
                m.isAbstract = md.isAbstract() || (iface && md.getBody().isEmpty() && !md.isStatic());
                m.line = line(md.getName());
                for (TypeParameter tp : md.getTypeParameters()) {
                    m.typeParams.put(tp.getNameAsString(), tp.getTypeBound().isEmpty() ? null : ref(tp.getTypeBound().get(0)));
                }
                readParams(md.getParameters(), m.params);
                readAnnotations(md, m.annotations);
                md.getBody().ifPresent(b -> {
                    m.bodyLine = line(b);
                    m.body = ctx.text(line(b), b.getEnd().get().line);
                });
                t.methods.add(m);
            } else if (member instanceof ConstructorDeclaration cd) {
                CtorInfo c = new CtorInfo(t);
                c.isPublic = cd.isPublic();
                c.line = line(cd.getName());
                readParams(cd.getParameters(), c.params);
                readAnnotations(cd, c.annotations);
                c.bodyLine = line(cd.getBody());
                c.body = ctx.text(line(cd.getBody()), cd.getBody().getEnd().get().line);
                t.ctors.add(c);
            } else if (member instanceof FieldDeclaration fd) {
                for (VariableDeclarator v : fd.getVariables()) {
                    FieldInfo f = new FieldInfo(t, v.getNameAsString(), ref(v.getType()));
                    f.isPublic = fd.isPublic() || iface;
                    f.isStatic = fd.isStatic() || iface;
                    f.isFinal = fd.isFinal() || iface;
                    f.isTransient = fd.isTransient();
                    f.line = line(v.getName());
                    v.getInitializer().ifPresent(init -> {
                        if (init instanceof StringLiteralExpr s) {
                            f.stringValue = s.asString();
                        }
                        if (init instanceof ObjectCreationExpr o) {
                            fieldInits.add(o);
                        }
                        f.init = expr(init);
                    });
                    t.fields.add(f);
                }
            }
        }
    }

    private void readParams(NodeList<Parameter> ps, List<Param> out) {
        for (Parameter p : ps) {
            TypeRef tr = ref(p.getType());
            if (p.isVarArgs()) {
                tr = new TypeRef(tr.name, tr.args, tr.dims + 1, tr.upper);
            }
            Annotations a = new Annotations();
            readAnnotations(p, a);
            out.add(new Param(p.getNameAsString(), tr, a, line(p.getName())));
        }
    }

    private static void readAnnotations(NodeWithAnnotations<?> n, Annotations out) {
        for (AnnotationExpr a : n.getAnnotations()) {
            List<String> values = new ArrayList<>();
            if (a instanceof SingleMemberAnnotationExpr s) {
                values(s.getMemberValue(), values);
            } else if (a instanceof NormalAnnotationExpr na) {
                for (MemberValuePair p : na.getPairs()) {
                    if (p.getNameAsString().equals("value")) {
                        values(p.getValue(), values);
                    }
                }
            }
            out.put(a.getNameAsString(), values);
        }
    }

    private static void values(Expression e, List<String> out) {
        if (e instanceof StringLiteralExpr s) {
            out.add(s.asString());
        } else if (e instanceof ArrayInitializerExpr arr) {
            for (Expression v : arr.getValues()) {
                values(v, out);
            }
        } else if (e instanceof ClassExpr c) {
            out.add(c.getType().asString() + ".class");
        } else {
            // a constant (resolved by the caller through the declaring types' fields)
            out.add("@const:" + e.toString());
        }
    }

    /** The parser-independent form of an expression (see {@link Expr}). */
    static Expr expr(Expression e) {
        int line = line(e);
        String src = source(e);
        if (e instanceof EnclosedExpr en) {
            return expr(en.getInner());
        }
        if (e instanceof CastExpr c) {
            return expr(c.getExpression());
        }
        if (e instanceof StringLiteralExpr s) {
            return new Expr("string", s.asString(), null, line, src);
        }
        if (e instanceof BooleanLiteralExpr || e instanceof NullLiteralExpr) {
            return new Expr("literal", e.toString(), null, line, src);
        }
        if (e instanceof ClassExpr c) {
            return new Expr("class", c.getType().asString(), null, line, src);
        }
        if (e instanceof ObjectCreationExpr o) {
            List<Expr> args = new ArrayList<>();
            o.getArguments().forEach(a -> args.add(expr(a)));
            return new Expr("new", scopedName(o.getType()), args, line, src);
        }
        String dotted = dotted(e);
        if (dotted != null) {
            return new Expr("name", dotted, null, line, src);
        }
        if (e instanceof MethodCallExpr mc) {
            List<Expr> args = new ArrayList<>();
            mc.getArguments().forEach(a -> args.add(expr(a)));
            String scope = mc.getScope().map(s -> {
                String d = dotted(s);
                return (d != null ? d : source(s)) + ".";
            }).orElse("");
            return new Expr("call", scope + mc.getNameAsString(), args, line, src);
        }
        return new Expr("other", src, null, line, src);
    }

    /** "a.b.C.D" for a name or a chain of field accesses on a name, else null. */
    private static String dotted(Expression e) {
        if (e instanceof NameExpr n) {
            return n.getNameAsString();
        }
        if (e instanceof FieldAccessExpr fa) {
            String s = dotted(fa.getScope());
            return s == null ? null : s + "." + fa.getNameAsString();
        }
        return null;
    }

    /** The source text of a node, whitespace collapsed (comments kept out by the token range's own text). */
    private static String source(Node n) {
        return n.getTokenRange().map(r -> r.toString()).orElse(n.toString()).trim().replaceAll("\\s+", " ");
    }

    static TypeRef ref(Type type) {
        if (type instanceof ArrayType at) {
            TypeRef c = ref(at.getComponentType());
            return new TypeRef(c.name, c.args, c.dims + 1, c.upper);
        }
        if (type instanceof PrimitiveType p) {
            return new TypeRef(p.asString(), null, 0, null);
        }
        if (type instanceof WildcardType w) {
            return new TypeRef("?", null, 0, w.getExtendedType().map(JavaReader::ref).orElse(null));
        }
        if (type instanceof ClassOrInterfaceType c) {
            List<TypeRef> args = new ArrayList<>();
            c.getTypeArguments().ifPresent(ta -> ta.forEach(a -> args.add(ref(a))));
            return new TypeRef(scopedName(c), args, 0, null);
        }
        // void, var, union/intersection types: their text
        return new TypeRef(type.asString(), null, 0, null);
    }

    private static String scopedName(ClassOrInterfaceType c) {
        return c.getScope().map(s -> scopedName(s) + ".").orElse("") + c.getNameAsString();
    }

    private static int line(Node n) {
        return n.getBegin().map(p -> p.line).orElse(0);
    }
}
