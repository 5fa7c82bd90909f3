package dev.retryaudit.api;

import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code --limit-*} options of every command that reads an input set (the Spark job's too), their checks,
 * and how a diagnostic says to raise a limit an input exceeded.
 */
public final class LimitOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--limit-bytes", paramLabel = "N", description = "Most input bytes, all files together (default: 1 GiB).")
    long bytes = Limits.DEFAULTS.bytes();

    @Option(names = "--limit-operations", paramLabel = "N", description = "Most operations (default: 5,000,000).")
    long operations = Limits.DEFAULTS.operations();

    @Option(names = "--limit-attempts", paramLabel = "N", description = "Most attempts in one operation (default: 10,000).")
    int attempts = Limits.DEFAULTS.attemptsPerOperation();

    @Option(names = "--limit-string", paramLabel = "N",
            description = "Longest string value, in characters (code points); field names may have as many, "
                    + "and at least 1,024 (default: 65,536).")
    int string = Limits.DEFAULTS.stringLength();

    @Option(names = "--limit-depth", paramLabel = "N", description = "Deepest nesting, 1..1,000 (default: 64).")
    int depth = Limits.DEFAULTS.depth();

    /** The hint after an input error's message, for example {@code raise it with --limit-string}. */
    public static String hint(Limit limit) {
        return RetryAuditException.commandLineHint(limit);
    }

    /** The limits given, or a usage error naming the option whose value is out of range. */
    public Limits limits() {
        atLeastOne("--limit-bytes", Limit.BYTES, bytes);
        atLeastOne("--limit-operations", Limit.OPERATIONS, operations);
        atLeastOne("--limit-attempts", Limit.ATTEMPTS, attempts);
        atLeastOne("--limit-string", Limit.STRING, string);
        atLeastOne("--limit-depth", Limit.DEPTH, depth);
        if (depth > Limits.MAX_DEPTH) {
            throw usage("invalid value for option '--limit-depth': " + Limits.outOfRange(Limit.DEPTH, false));
        }
        return new Limits(bytes, operations, attempts, string, depth);
    }

    private void atLeastOne(String option, Limit limit, long value) {
        if (value < 1) {
            throw usage("invalid value for option '" + option + "': " + Limits.outOfRange(limit, true));
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
