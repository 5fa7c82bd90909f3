package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The limits of the public surface, read from the compiled classes of the exported packages: no public
 * constructor or method takes more than 8 parameters, no public time accessor returns a primitive (whose
 * "absent" would be a sentinel) unless a {@code has} method beside it says whether it is there, the public types stay few, and each says in a Javadoc sentence what it is for.
 */
class PublicSurfaceTest {
    private static final Path CLASSES = Path.of("target/classes");
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern EXPORT = Pattern.compile("^\\s*exports (dev\\.retryaudit[\\w.]*);", Pattern.MULTILINE);

    /**
     * The ceiling on public types (nested ones counted) in the exported packages; lower it as types
     * become internal, never raise it without a reason a caller gives. Callers build each model value
     * and a policy in code, through the values' own builders (a finding's message may be a lazy text).
     * An engine that audits in parts (a Spark job) has the split protocol's own door, apart from the
     * library auditor: its auditor of parts and the report's pieces written where findings are made.
     */
    private static final int MOST_PUBLIC_TYPES = 50;

    @Test
    void noPublicMemberTakesMoreThanEightParameters() throws Exception {
        Set<String> wide = new TreeSet<>();
        for (Class<?> type : publicTypes()) {
            for (Executable m : members(type)) {
                if (visible(m.getModifiers()) && !m.isSynthetic() && m.getParameterCount() > 8) {
                    wide.add(type.getName() + (m instanceof Method ? "." + m.getName() : "") + "(" + m.getParameterCount() + ")");
                }
            }
        }
        assertThat(wide).as("public members of more than 8 parameters").isEmpty();
    }

    @Test
    void noPublicTimeAccessorReturnsAPrimitive() throws Exception {
        List<String> primitive = new ArrayList<>();
        for (Class<?> type : publicTypes()) {
            for (Method m : type.getDeclaredMethods()) {
                String name = m.getName();
                boolean time = name.endsWith("At") || name.endsWith("Time") || name.startsWith("duration")
                        || name.endsWith("Millis");
                if (visible(m.getModifiers()) && time && m.getParameterCount() == 0 && m.getReturnType().isPrimitive()
                        && !paired(type, name)) {
                    primitive.add(type.getName() + "." + name);
                }
            }
        }
        assertThat(primitive).as("time accessors that return a primitive, and so a sentinel for absent").isEmpty();
    }

    /**
     * Whether the time accessor {@code name} ({@code startMillis}) has a public {@code has} method beside it
     * ({@code hasStart}), which says whether the time is there: then no value stands for "absent".
     */
    private static boolean paired(Class<?> type, String name) {
        if (!name.endsWith("Millis")) {
            return false;
        }
        String what = name.substring(0, name.length() - "Millis".length());
        try {
            Method has = type.getMethod("has" + Character.toUpperCase(what.charAt(0)) + what.substring(1));
            return has.getReturnType() == boolean.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    @Test
    void noPublicMemberNamesAnInternalType() throws Exception {
        List<Class<?>> types = publicTypes();
        Set<String> exported = new TreeSet<>();
        types.forEach(t -> exported.add(t.getPackageName()));
        Pattern named = Pattern.compile("\\bdev\\.retryaudit(?:\\.[a-z]\\w*)+(?=\\.[A-Z])");
        Set<String> leaks = new TreeSet<>();
        for (Class<?> type : types) {
            List<String> signatures = new ArrayList<>();
            if (type.getGenericSuperclass() != null) {
                signatures.add(type.getGenericSuperclass().getTypeName());
            }
            for (var i : type.getGenericInterfaces()) {
                signatures.add(i.getTypeName());
            }
            for (Executable m : members(type)) {
                if (visible(m.getModifiers()) && !m.isSynthetic()) {
                    signatures.add(m.toGenericString());
                }
            }
            for (java.lang.reflect.Field f : type.getDeclaredFields()) {
                if (visible(f.getModifiers()) && !f.isSynthetic()) {
                    signatures.add(f.toGenericString());
                }
            }
            for (String signature : signatures) {
                Matcher m = named.matcher(signature);
                while (m.find()) {
                    if (!exported.contains(m.group())) {
                        leaks.add(type.getName() + ": " + signature);
                    }
                }
            }
        }
        assertThat(leaks).as("public members that name a type of an internal package").isEmpty();
    }

    private static List<Executable> members(Class<?> type) {
        List<Executable> members = new ArrayList<>(List.of(type.getDeclaredConstructors()));
        members.addAll(List.of(type.getDeclaredMethods()));
        return members;
    }

    @Test
    void thePublicTypesAreFewAndEachSaysWhatItIsFor() throws Exception {
        List<Class<?>> types = publicTypes();
        assertThat(types).as("public types of the exported packages").hasSizeLessThanOrEqualTo(MOST_PUBLIC_TYPES);
        List<String> undocumented = new ArrayList<>();
        for (Class<?> type : types) {
            Class<?> top = type;
            while (top.getEnclosingClass() != null) {
                top = top.getEnclosingClass();
            }
            String source = Files.readString(SOURCES.resolve(top.getName().replace('.', '/') + ".java"));
            if (!documented(source, type.getSimpleName())) {
                undocumented.add(type.getName());
            }
        }
        assertThat(undocumented).as("public types without a Javadoc sentence before their declaration").isEmpty();
    }

    /** Whether the declaration of {@code name} in {@code source} follows a Javadoc comment with a sentence. */
    private static boolean documented(String source, String name) {
        Matcher m = Pattern.compile("/\\*\\*((?:(?!\\*/).)*)\\*/\\s*(?:@\\w+(?:\\([^)]*\\))?\\s*)*"
                + "(?:(?:public|protected|static|final|abstract|sealed|non-sealed)\\s+)*(?:class|interface|enum|record)\\s+"
                + Pattern.quote(name) + "\\b", Pattern.DOTALL).matcher(source);
        return m.find() && m.group(1).replaceAll("\\s*\\*\\s*", " ").strip().matches("(?s)[A-Z{<].*?[.:].*");
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    /** The public types, nested ones included, of every package the module exports. */
    private static List<Class<?>> publicTypes() throws IOException, ClassNotFoundException {
        Matcher e = EXPORT.matcher(Files.readString(SOURCES.resolve("module-info.java")));
        List<String> packages = new ArrayList<>();
        while (e.find()) {
            packages.add(e.group(1));
        }
        assertThat(packages).contains("dev.retryaudit.api", "dev.retryaudit.model");
        List<Class<?>> types = new ArrayList<>();
        for (String pkg : packages) {
            Path dir = CLASSES.resolve(pkg.replace('.', '/'));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                    String file = f.getFileName().toString();
                    Class<?> type = Class.forName(pkg + "." + file.substring(0, file.length() - 6), false,
                            PublicSurfaceTest.class.getClassLoader());
                    if (isPublic(type) && !type.isAnonymousClass() && !type.isSynthetic()) {
                        types.add(type);
                    }
                }
            }
        }
        return types;
    }

    /** Public, and so are the types it is nested in. */
    private static boolean isPublic(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
            if (!Modifier.isPublic(t.getModifiers())) {
                return false;
            }
        }
        return true;
    }
}
