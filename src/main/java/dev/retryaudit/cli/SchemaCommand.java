package dev.retryaudit.cli;

import dev.retryaudit.api.ExitCode;
import dev.retryaudit.text.Suggestions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code retry-audit schema NAME}: prints the JSON Schema (2020-12) of one of our formats, shipped in the jar. */
@Command(addMethodSubcommands = false, name = "schema", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        usageHelpAutoWidth = true,
        description = "Print the JSON Schema (draft 2020-12) of a format: operations and spans (inputs), "
                + "policy (--policy), report (--format json), scorecard (probe --suite --scorecard json). Without NAME, list the schemas.")
final class SchemaCommand implements Callable<Integer> {
    /** The schemas, in the order they are listed. */
    static final List<String> NAMES = List.of("operations", "spans", "policy", "report", "scorecard");

    private final Streams io;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "NAME", arity = "0..1", completionCandidates = Names.class,
            description = "The schema to print: ${COMPLETION-CANDIDATES}.")
    String name;

    SchemaCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        if (name == null) {
            for (String n : NAMES) {
                io.out().println(n);
            }
            return ExitCode.CLEAN.code();
        }
        if (!NAMES.contains(name)) {
            String hint = Suggestions.closest(name, NAMES).map(k -> " (did you mean " + k + "?)").orElse("");
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "unknown schema" + hint + ": expected one of " + String.join(", ", NAMES));
        }
        io.out().print(text(name));
        io.out().flush();
        return ExitCode.CLEAN.code();
    }

    /** The schema's text as shipped in the jar. */
    static String text(String name) {
        try (InputStream in = SchemaCommand.class.getResourceAsStream(resource(name))) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource(name));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String resource(String name) {
        return "/schemas/" + name + ".schema.json";
    }

    /** The schema names, for help. */
    static final class Names implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return NAMES.iterator();
        }
    }
}
