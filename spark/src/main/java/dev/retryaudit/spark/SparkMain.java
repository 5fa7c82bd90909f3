package dev.retryaudit.spark;

import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.Setting;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The {@code spark-submit} application: {@code retry-audit-spark audit --input PATH... --output DIR},
 * with the command line's policy, rule selection, limits, {@code --fail-on} and exit codes.
 */
@Command(name = "retry-audit-spark", mixinStandardHelpOptions = true, versionProvider = SparkMain.Version.class,
        description = "Audits traces for unsafe retries on Apache Spark, with the same findings as retry-audit.",
        subcommands = SparkMain.Audit.class,
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "  0:the audit ran; no finding at or above --fail-on",
            "  2:the audit ran; at least one finding at or above --fail-on",
            " 64:usage error: unknown option, bad option value, missing argument",
            " 65:input rejected: malformed JSON, schema violation, unknown field, limit exceeded",
            " 66:an input path (or --policy) does not exist or cannot be read",
            " 70:internal error: a bug (--debug shows the stack trace)",
            " 74:the output could not be written (DIR/findings exists, not writable)"})
public final class SparkMain implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // Kryo unless the user's own --conf chooses otherwise.
        SparkSession spark = SparkSession.builder().config(KryoClasses.defaults(new SparkConf())).appName("retry-audit")
                .getOrCreate();
        int code;
        try {
            code = run(spark, args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        } finally {
            spark.stop();
        }
        System.exit(code);
    }

    /** Runs the command line against {@code spark}; returns the exit code. */
    public static int run(SparkSession spark, String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new SparkMain(), new Factory(spark));
        Audit.offerSettings(cl.getSubcommands().get("audit").getCommandSpec());
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println(ex.getMessage());
            ex.getCommandLine().getErr().println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help'");
            return ExitCode.USAGE.code();
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof CommandLine.ParameterException pe) {
                return cmd.getParameterExceptionHandler().handleParseException(pe, args);
            }
            cmd.getErr().println("retry-audit-spark: internal error: " + ex
                    + "; please report it (--debug shows the stack trace)");
            if (List.of(args).contains("--debug")) {
                ex.printStackTrace(cmd.getErr());
            }
            return ExitCode.SOFTWARE.code();
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: audit");
    }

    /** The command line's diagnostic of a rejected input: a limit names the option that raises it. */
    static String diagnostic(RetryAuditException e) {
        return e.commandLineDiagnostic();
    }

    /** Version of the library the job runs. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"retry-audit-spark " + dev.retryaudit.api.RetryAudit.version()};
        }
    }

    /** Gives the audit command the session it runs in. */
    private record Factory(SparkSession spark) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> cls) throws Exception {
            if (cls == Audit.class) {
                return cls.cast(new Audit(spark));
            }
            return CommandLine.defaultFactory().create(cls);
        }
    }

    /** {@code audit}: reads the inputs, audits them, writes the findings and the summary. */
    @Command(name = "audit", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Audits the inputs as one input set and writes DIR/findings (one finding a line, each the "
                + "JSON report's finding object, in report order; or Parquet) and DIR/summary.json (the JSON report "
                + "without its findings)."})
    static final class Audit implements Callable<Integer> {
        /** The settings rows the job offers, in the order help lists them: not the input format, report format or tools. */
        private static final List<Setting> SETTINGS = List.of(Setting.POLICY, Setting.FAIL_ON, Setting.ENABLE,
                Setting.DISABLE, Setting.LIMIT_BYTES, Setting.LIMIT_OPERATIONS, Setting.LIMIT_ATTEMPTS,
                Setting.LIMIT_STRING, Setting.LIMIT_DEPTH);

        private final SparkSession spark;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--input", required = true, arity = "1..*", paramLabel = "PATH",
                description = "a file, directory or glob Spark can read (local, HDFS, S3); repeatable; in order")
        List<String> inputs = new ArrayList<>();

        @Option(names = "--input-format", required = true, paramLabel = "FORMAT",
                description = "spans (JSON Lines), otlp (OTLP/JSON Lines: one trace export a line) or parquet (the spans "
                        + "fields as columns)")
        String inputFormat;

        @Option(names = "--output", required = true, paramLabel = "DIR", description = "where to write; must not hold findings yet")
        String output;

        @Option(names = "--output-format", paramLabel = "FORMAT", defaultValue = "json",
                description = "json (JSON Lines) or parquet; default ${DEFAULT-VALUE}")
        String outputFormat;

        @Option(names = "--debug", description = "stack traces on internal errors")
        boolean debug;

        Audit(SparkSession spark) {
            this.spark = spark;
        }

        /** Adds the settings rows the job offers to {@code spec} as options, listed in help before --debug. */
        static void offerSettings(CommandSpec spec) {
            List<OptionSpec> last = List.of(spec.findOption("--debug"), spec.findOption("--help"), spec.findOption("--version"));
            last.forEach(spec::remove);
            for (Setting s : SETTINGS) {
                spec.addOption(OptionSpec.builder(s.option()).paramLabel(s.label()).description(s.description())
                        .type(s.repeatable() ? List.class : String.class).auxiliaryTypes(String.class).build());
            }
            last.forEach(spec::addOption);
        }

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            SparkAuditResult.OutputFormat format = outputFormat();
            String inputFormat = inputFormat();
            dev.retryaudit.api.AuditSettings settings = settings();
            refuseWrittenOutput();
            try {
                SparkAudit.findingsPerPart(spark);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            SparkAudit audit;
            try {
                audit = SparkAudit.of(spark, settings);
            } catch (RetryAuditException e) {
                return fail(err, e);
            }
            try (SparkAuditResult result = switch (inputFormat) {
                case "parquet" -> audit.parquet(inputs);
                case "otlp" -> audit.otlp(inputs);
                default -> audit.spans(inputs);
            }) {
                result.write(output, format, spark.sparkContext().hadoopConfiguration());
                return result.exitCode();
            } catch (RetryAuditException e) {
                return fail(err, e);
            } catch (IOException e) {
                err.println(output + ": error: cannot write the output: " + firstLine(e.getMessage()));
                return ExitCode.CANT_WRITE.code();
            } catch (RuntimeException e) {
                err.println("retry-audit-spark: internal error: " + firstLine(String.valueOf(e.getMessage()))
                        + "; please report it (--debug shows the stack trace)");
                if (debug) {
                    e.printStackTrace(err);
                }
                return ExitCode.SOFTWARE.code();
            }
        }

        /** An output that holds findings or a summary already is refused before anything is read. */
        private void refuseWrittenOutput() {
            try {
                org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(output);
                FileSystem fs = dir.getFileSystem(spark.sparkContext().hadoopConfiguration());
                for (String name : List.of("findings", "summary.json")) {
                    if (fs.exists(new org.apache.hadoop.fs.Path(dir, name))) {
                        throw new CommandLine.ParameterException(spec.commandLine(), "--output: " + output
                                + " already holds " + name + "; name a new directory");
                    }
                }
            } catch (IOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--output: " + output
                        + ": " + firstLine(e.getMessage()));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--output: " + firstLine(e.getMessage()));
            }
        }

        private static int fail(PrintWriter err, RetryAuditException e) {
            err.println(diagnostic(e));
            return ExitCode.of(e).code();
        }

        /** The audit settings of the options, or a usage error naming the option, rule or value that is wrong. */
        private dev.retryaudit.api.AuditSettings settings() {
            dev.retryaudit.api.AuditSettings.Builder b = dev.retryaudit.api.AuditSettings.builder();
            try {
                for (Setting s : SETTINGS) {
                    OptionSpec o = spec.findOption(s.option());
                    if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                        o.stringValues().forEach(v -> s.apply(b, v));
                    }
                }
                return b.build();
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        private static String firstLine(String m) {
            return m == null ? "" : m.lines().findFirst().orElse("");
        }

        private String inputFormat() {
            if (!List.of("spans", "otlp", "parquet").contains(inputFormat)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--input-format: expected spans, otlp or parquet, got " + inputFormat);
            }
            return inputFormat;
        }

        private SparkAuditResult.OutputFormat outputFormat() {
            return switch (outputFormat) {
                case "json" -> SparkAuditResult.OutputFormat.JSON;
                case "parquet" -> SparkAuditResult.OutputFormat.PARQUET;
                default -> throw new CommandLine.ParameterException(spec.commandLine(),
                        "--output-format: expected json or parquet, got " + outputFormat);
            };
        }
    }
}
