package dev.retryaudit.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Runs a large {@code audit}, and {@code serve}, started as a bare {@code java -jar retry-audit.jar} in a JVM of
 * its own with the settings the launcher gives it: the serial collector and, for input files of less than
 * 256 MiB, the quick compiler alone. Java 17 takes no JVM option from a jar's manifest, and with its
 * defaults an audit of a few hundred MB spends a third of its CPU compiling with C2 and holds about
 * twice the memory (docs/benchmark.md). {@code serve} also starts with a small heap ({@value #SERVE_HEAP}),
 * grown as the spans held need it: the default initial heap is a 64th of the machine's memory, and the
 * collector touches all of it under a steady stream of exports, so a sidecar's resident memory would follow
 * the machine, not the spans it holds (docs/serve.md). The JVM it starts inherits the working directory, the
 * environment and the standard streams and gets the same arguments, so it prints the same bytes; its
 * exit code is this process's. A {@code serve} run's SIGTERM and SIGINT are passed on to it, which ends
 * its run as it ends one of its own; the JVM started ends its run the same way if this one is gone.
 *
 * <p>Only when nothing else chose the JVM's settings: the process's command line is {@code -jar JAR}
 * and the arguments (no JVM option), none of {@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS} and
 * {@code _JAVA_OPTIONS} is set, {@code RETRY_AUDIT_RELAUNCH} is not {@code off}, and the first argument is
 * {@code serve}, or {@code audit} with arguments that name regular files of at least 4 MiB (a {@code .gz} or
 * {@code .zst} file counted at eight times its size, as the launcher counts them; standard input and the
 * {@code --output} file are not counted). Below that a second start costs more than the settings save.
 */
final class TunedJvm {
    /** The environment variable that turns the relaunch off ({@code off}). */
    static final String SWITCH = "RETRY_AUDIT_RELAUNCH";
    /** The environment variable that tells the JVM started which process started it, to end with it. */
    static final String STARTED_BY = "RETRY_AUDIT_STARTED_BY";
    /** The initial heap of {@code serve}'s JVM. */
    static final String SERVE_HEAP = "48m";
    /** The least input, in bytes, worth a JVM of its own. */
    static final long FROM_BYTES = 4L << 20;
    /** Inputs below this many bytes run with the quick compiler alone, as the launcher runs them. */
    static final long QUICK_COMPILER_BELOW = 256L << 20;
    /** The environment variables whose JVM options a relaunch would clash with. */
    private static final List<String> JVM_OPTIONS_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");
    /** How long the JVM started is given to end after it is told to stop, when this one is stopped. */
    private static final long STOP_SECONDS = 10;

    private TunedJvm() {
    }

    /**
     * Runs the audit in a JVM of its own when it is worth one, and returns its exit code; empty when
     * the command is for this JVM (also when the other one cannot be started: nothing was printed).
     */
    static OptionalInt run(String[] args, PrintStream stderr) {
        Optional<List<String>> command;
        try {
            command = command(() -> ProcessHandle.current().info().arguments().map(List::of).orElse(null),
                    System.getenv(), List.of(args), TunedJvm::javaExecutable, TunedJvm::jarOfThisClass, TunedJvm::size);
        } catch (RuntimeException e) {
            return OptionalInt.empty();
        }
        if (command.isEmpty()) {
            return OptionalInt.empty();
        }
        if (List.of(args).contains("--debug")) {
            stderr.println(VersionInfo.NAME + ": debug: the " + args[0] + " runs in a JVM of its own: "
                    + String.join(" ", command.get().subList(0, command.get().indexOf("-jar"))));
        }
        Process child;
        try {
            ProcessBuilder builder = new ProcessBuilder(command.get()).inheritIO();
            builder.environment().put(STARTED_BY, Long.toString(ProcessHandle.current().pid()));
            child = builder.start();
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
        if (args[0].equals("serve")) {
            passOn(child);
        }
        Thread stop = new Thread(() -> stop(child), "retry-audit-relaunch-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            return OptionalInt.of(child.waitFor());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(child);
            return OptionalInt.of(130);
        }
    }

    /**
     * Passes this process's SIGTERM and SIGINT on to {@code child} (as a SIGTERM, which ends a {@code serve} run as
     * SIGINT does), instead of ending this JVM: its exit code stays the child's.
     */
    private static void passOn(Process child) {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), s -> child.destroy());
            } catch (IllegalArgumentException e) {
                // A signal this platform or JVM does not let a program handle: it ends this JVM, whose hook stops the child.
            }
        }
    }

    /**
     * In a JVM started by another ({@value #STARTED_BY} names it), ends this process as a SIGTERM would once that
     * one is gone, whatever ended it: a run is not left going with no one to read its exit code.
     */
    static void endWithStarter(Map<String, String> env) {
        String starter = env.get(STARTED_BY);
        if (starter == null) {
            return;
        }
        try {
            ProcessHandle.of(Long.parseLong(starter)).ifPresentOrElse(
                    p -> p.onExit().thenRun(TunedJvm::terminate), TunedJvm::terminate);
        } catch (NumberFormatException | UnsupportedOperationException | SecurityException e) {
            // Not a process id this system can watch: the run goes on as one started by hand.
        }
    }

    /** Raises SIGTERM in this process, which ends it as the signal would. */
    private static void terminate() {
        try {
            sun.misc.Signal.raise(new sun.misc.Signal("TERM"));
        } catch (IllegalArgumentException e) {
            Runtime.getRuntime().exit(143);
        }
    }

    /** Tells the JVM started to stop (this one is stopping) and gives it a moment to end. */
    private static void stop(Process child) {
        if (!child.isAlive()) {
            return;
        }
        child.destroy();
        try {
            child.waitFor(STOP_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The command of the JVM the audit should run in, or empty for this one. What the process is asked
     * (its arguments, its java, its jar) only once the command and the input are worth a JVM of its own,
     * so that every other start pays nothing for it.
     *
     * @param processArgs this process's arguments after the executable, as the system gives them (null: unknown)
     * @param env         the environment
     * @param args        the program's arguments, as {@code main} got them
     * @param java        the java executable of this JVM (null: none)
     * @param jar         the jar this class was loaded from (null: not a jar)
     * @param sizeOf      the size in bytes of the regular file an argument names, else -1
     */
    static Optional<List<String>> command(Supplier<List<String>> processArgs, Map<String, String> env, List<String> args,
            Supplier<Path> java, Supplier<Path> jar, ToLongFunction<String> sizeOf) {
        if (args.isEmpty() || !(args.get(0).equals("audit") || args.get(0).equals("serve")) || "off".equals(env.get(SWITCH))
                || JVM_OPTIONS_VARIABLES.stream().anyMatch(v -> env.get(v) != null && !env.get(v).isBlank())) {
            return Optional.empty();
        }
        boolean serve = args.get(0).equals("serve");
        long bytes = serve ? 0 : inputBytes(args, sizeOf);
        if (!serve && bytes < FROM_BYTES || !passesIntact(args)) {
            return Optional.empty();
        }
        List<String> process = processArgs.get();
        if (process == null || process.size() != args.size() + 2 || !process.get(0).equals("-jar")
                || !process.subList(2, process.size()).equals(args)) {
            return Optional.empty();
        }
        Path javaPath = java.get();
        Path jarPath = jar.get();
        if (javaPath == null || jarPath == null) {
            return Optional.empty();
        }
        List<String> command = new ArrayList<>();
        command.add(javaPath.toString());
        command.add("-XX:+UseSerialGC");
        if (serve) {
            command.add("-Xms" + SERVE_HEAP);
        } else if (bytes < QUICK_COMPILER_BELOW) {
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.add("-jar");
        command.add(jarPath.toString());
        command.addAll(args);
        return Optional.of(command);
    }

    /**
     * The bytes of the files the arguments name, a compressed one at eight times its size, as the launcher
     * counts them; not the report's own file (the value of {@code --output}), which an earlier run may have left.
     */
    static long inputBytes(List<String> args, ToLongFunction<String> sizeOf) {
        long total = 0;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (i > 0 && args.get(i - 1).equals("--output")) {
                continue;
            }
            long n = sizeOf.applyAsLong(a);
            if (n > 0) {
                String name = a.toLowerCase(Locale.ROOT);
                boolean compressed = name.endsWith(".gz") || name.endsWith(".gzip") || name.endsWith(".zst") || name.endsWith(".zstd");
                total += compressed ? n * 8 : n;
            }
        }
        return total;
    }

    /**
     * Whether every argument reaches a new process as this one got it: none holds a character the
     * system's encoding could not decode (a name the locale cannot represent) or encode.
     */
    private static boolean passesIntact(List<String> args) {
        CharsetEncoder encoder;
        try {
            encoder = Charset.forName(System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name())).newEncoder();
        } catch (RuntimeException e) {
            return false;
        }
        for (String a : args) {
            if (a.indexOf('\uFFFD') >= 0 || !encoder.canEncode(a)) {
                return false;
            }
        }
        return true;
    }

    /** The size of the regular file {@code name} names, else -1. */
    private static long size(String name) {
        try {
            Path p = Path.of(name);
            return Files.isRegularFile(p) ? Files.size(p) : -1;
        } catch (InvalidPathException | IOException | SecurityException e) {
            return -1;
        }
    }

    /** This JVM's java executable, or null. */
    private static Path javaExecutable() {
        String home = System.getProperty("java.home");
        if (home == null) {
            return null;
        }
        for (String name : List.of("java", "java.exe")) {
            Path p = Path.of(home, "bin", name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** The jar this class was loaded from, or null (a directory of classes, or unknown). */
    private static Path jarOfThisClass() {
        try {
            var source = TunedJvm.class.getProtectionDomain().getCodeSource();
            if (source == null) {
                return null;
            }
            Path p = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(p) && p.getFileName().toString().endsWith(".jar") ? p : null;
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }
}
