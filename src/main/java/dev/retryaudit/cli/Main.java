package dev.retryaudit.cli;

import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.AuditInput;
import dev.retryaudit.text.Escaping;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/** The entry point: builds the command line over the given streams and returns the exit code. */
public final class Main {
    /** The subcommands, in the order the help lists them. */
    private static final List<String> SUBCOMMANDS = List.of("audit", "rules", "explain", "schema", "probe", "mcp", "serve");

    /** The system property that keeps picocli from registering the converters it finds by reflection. */
    private static final String CONVERTERS_EXCLUDED = "picocli.converters.excludes";

    private Main() {
    }

    public static void main(String[] args) {
        // A large audit of a bare `java -jar` runs in a JVM with the launcher's settings (TunedJvm).
        java.util.OptionalInt tuned = TunedJvm.run(args, System.err);
        if (tuned.isPresent()) {
            System.exit(tuned.getAsInt());
        }
        TunedJvm.endWithStarter(System.getenv());
        // picocli's converters for java.time, java.sql and Path are found by reflection, which loads and
        // initializes those classes on every start (a tenth of a short audit's CPU): no option needs them,
        // and Path has a converter of its own here. Set in the process's entry alone, never for a library caller.
        if (System.getProperty(CONVERTERS_EXCLUDED) == null) {
            System.setProperty(CONVERTERS_EXCLUDED, ".*");
        }
        System.exit(run(args, System.in, new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err)));
    }

    /** Runs one command; every byte the tool prints goes to {@code stdout} or {@code stderr}. */
    public static int run(String[] args, InputStream stdin, OutputStream stdout, OutputStream stderr) {
        WatchedOutput watched = new WatchedOutput(stdout);
        PrintWriter out = new PrintWriter(new OutputStreamWriter(watched, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(stderr, StandardCharsets.UTF_8), true);
        Streams io = new Streams(stdin, watched, out, err);
        CommandLine cl = commandLine(io, args.length > 0 ? args[0] : null);
        int code;
        try {
            code = cl.execute(args);
        } catch (OutOfMemoryError e) {
            code = Failures.outOfMemory(err, e, args);
        } finally {
            out.flush();
            err.flush();
        }
        if (watched.failure() != null && code != ExitCode.CANT_WRITE.code()) {
            err.println(VersionInfo.NAME + ": error: cannot write to standard output: "
                    + Escaping.controls(String.valueOf(watched.failure().getMessage())));
            err.flush();
            return ExitCode.CANT_WRITE.code();
        }
        return code;
    }

    private static Object subcommand(String name, Streams io) {
        return switch (name) {
            case "audit" -> AuditCommand.commandLine(io);
            case "rules" -> new RulesCommand(io);
            case "explain" -> new ExplainCommand(io);
            case "schema" -> new SchemaCommand(io);
            case "probe" -> ProbeCommand.commandLine(io);
            case "mcp" -> new McpCommand(io);
            case "serve" -> ServeCommand.commandLine(io);
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    /** A file named on the command line as a path, also when the locale cannot represent its name. */
    private static Path path(String name) {
        try {
            return AuditInput.path(name);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** The command tree with its handlers; every command and subcommand lists the exit codes in its help. */
    static CommandLine commandLine(Streams io) {
        return commandLine(io, null);
    }

    /**
     * As {@link #commandLine(Streams)}; when {@code first} (the first argument, or null) names a
     * subcommand, only that one is built, since building a command reads its annotations by reflection
     * and that is most of the start-up time.
     */
    static CommandLine commandLine(Streams io, String first) {
        CommandLine cl = new CommandLine(new RetryAuditCommand(io));
        boolean one = first != null && SUBCOMMANDS.contains(first);
        for (String name : SUBCOMMANDS) {
            if (!one || name.equals(first)) {
                cl.addSubcommand(subcommand(name, io));
            }
        }
        cl.registerConverter(Path.class, Main::path);
        cl.setOut(io.out());
        cl.setErr(io.err());
        cl.setCaseInsensitiveEnumValuesAllowed(false);
        cl.setParameterExceptionHandler(Failures::usage);
        cl.setExecutionExceptionHandler(Failures::internal);
        for (CommandLine c : cl.getSubcommands().values()) {
            c.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodeHelp.list());
        }
        cl.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodeHelp.list());
        return cl;
    }
}
