package dev.retryaudit.api;

import dev.retryaudit.api.access.SplitAccess;
import dev.retryaudit.config.Baseline;
import dev.retryaudit.config.BaselineReader;
import dev.retryaudit.config.PolicyReader;
import dev.retryaudit.config.ToolsReader;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.ReportFormat;
import dev.retryaudit.model.Severity;
import dev.retryaudit.report.InputFailure;
import dev.retryaudit.report.JsonParts;
import dev.retryaudit.report.Report;
import dev.retryaudit.report.ReportWriter;
import dev.retryaudit.report.Summaries;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.Engine;
import dev.retryaudit.rules.engine.RuleSelection;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The library entry point: an immutable, thread-safe auditor made from {@link AuditSettings}. It audits an
 * {@link AuditInput} (operations built in code with {@link #operation}, or files and a stream in any
 * supported format) and writes reports. Each audit call is independent; share one instance freely.
 */
public final class RetryAudit {
    /** The tool's name, as reports give it. */
    public static final String NAME = "retry-audit";

    private final AuditSettings settings;
    private final Policy policy;
    private final RuleSelection selection;
    private final Baseline baseline;

    static {
        SplitAccess.lend(new SplitLending());
    }

    private RetryAudit(AuditSettings given) throws RetryAuditException {
        Limits limits = given.limits();
        Optional<Path> policyFile = given.policyFile();
        Policy policy = policyFile.isEmpty() ? given.policy() : reading(() -> PolicyReader.read(policyFile.get(),
                PolicyIds.of(given.catalogue()), limits));
        Optional<Path> toolsFile = given.toolsFile();
        Policy read = policy;
        this.policy = toolsFile.isEmpty() ? read : reading(() -> ToolsReader.apply(read, toolsFile.get(), limits));
        this.settings = policyFile.isEmpty() && toolsFile.isEmpty() ? given : given.toBuilder().policy(policy).build();
        String baselineName = given.baselineName();
        this.baseline = baselineName == null ? null : reading(() -> BaselineReader.read(baselineName, limits));
        this.selection = RuleSelection.of(given.catalogue(), policy, given.enable(), given.disable());
    }

    /** The auditor of {@code settings}; reads the policy and baseline files they name. */
    public static RetryAudit of(AuditSettings settings) throws RetryAuditException {
        return new RetryAudit(Objects.requireNonNull(settings, "settings"));
    }

    /** An auditor with the built-in policy and rules. */
    public static RetryAudit defaults() {
        try {
            return of(AuditSettings.defaults());
        } catch (RetryAuditException e) {
            throw new IllegalStateException("the built-in policy is valid", e);
        }
    }

    /** Starts building an operation with {@code id} run by {@code tool}; a null or empty one is refused. */
    public static Operation.Builder operation(String id, String tool) {
        if (id == null || id.isEmpty() || tool == null || tool.isEmpty()) {
            throw new IllegalArgumentException("an operation needs a non-empty id and tool");
        }
        return Operation.builder().id(id).tool(tool);
    }

    /** The settings of this auditor, with the policy file, if they named one, read into their policy. */
    public AuditSettings settings() {
        return settings;
    }

    /** The enabled rules, in catalogue order, each at the severity its findings get. */
    public List<RuleInfo> rules() {
        return selection.configured();
    }

    /**
     * Audits {@code input}: reads its files and stream as one input set in any supported format (detected, or
     * the settings' input format), or takes its operations, holding no operation longer than the rules need.
     * The result's findings are in report order.
     */
    public AuditResult audit(AuditInput input) throws RetryAuditException {
        return audit(input, f -> { });
    }

    /** As {@link #audit(AuditInput)}, handing every finding, in report order, to {@code listener} as well. */
    public AuditResult audit(AuditInput input, Consumer<? super Finding> listener) throws RetryAuditException {
        Objects.requireNonNull(listener, "listener");
        Engine engine = engine();
        List<InputSummary> inputs;
        if (input instanceof OperationsInput o) {
            inputs = List.of(feed(engine, o.operations(), o.source(), o.format()));
        } else {
            ReadInput r = reading(input);
            try (RulesBeside rules = new RulesBeside(engine::accept)) {
                inputs = read(r, rules);
                rules.finish();
            }
        }
        AuditResult result = result(inputs, engine);
        result.findings().forEach(listener);
        return result;
    }

    /** Every operation of {@code input}, read (or taken) as {@link #audit(AuditInput)} would, for a caller that audits later or elsewhere. */
    public List<Operation> read(AuditInput input) throws RetryAuditException {
        List<Operation> out = new ArrayList<>();
        if (input instanceof OperationsInput o) {
            o.operations().forEach(out::add);
        } else {
            read(reading(input), out::add);
        }
        return out;
    }

    /** Writes the report of {@code result} in the settings' report format (no colour) to {@code out}, which stays open. */
    public void writeReport(AuditResult result, OutputStream out) throws IOException {
        writeReport(result, settings.reportFormat(), false, out);
    }

    /**
     * Writes the report of {@code result} in the settings' report format to {@code out}, which stays open; with
     * {@code colour}, the text format marks severities with ANSI colours (for a terminal).
     */
    public void writeReport(AuditResult result, boolean colour, OutputStream out) throws IOException {
        writeReport(result, settings.reportFormat(), colour, out);
    }

    /**
     * Writes the report of {@code result} in {@code format} to {@code out}, which stays open; with {@code colour},
     * the text format marks severities with ANSI colours (for a terminal). Every report of an audit is written here.
     */
    public void writeReport(AuditResult result, ReportFormat format, boolean colour, OutputStream out)
            throws IOException {
        ReportWriter.of(format, colour).write(report(result), out);
    }

    /**
     * Writes what {@code format} prints instead of a report when the audit failed on {@code e}: the error, a
     * limit exceeded named as the command line's option that raises it ({@link RetryAuditException#commandLineDiagnostic}),
     * and its exit code ({@link ExitCode#of}). {@code out} stays open.
     */
    public static void writeError(RetryAuditException e, ReportFormat format, boolean colour, OutputStream out)
            throws IOException {
        ReportWriter.of(format, colour).writeError(new InputFailure(NAME, version(), ExitCode.of(e).code(),
                e.commandLineError()), out);
    }

    /**
     * How many operations with findings {@code format} draws with their attempts (HTML's timelines), for
     * {@link AuditSettings.Builder#timelines}; 0 for a format that draws none.
     */
    public static int timelines(ReportFormat format) {
        return ReportWriter.of(format, false).timelines();
    }

    /** Whether {@code result} passes: no finding at or above the settings' {@code failOn}. */
    public boolean passed(AuditResult result) {
        return report(result).passed();
    }

    /**
     * The one-line summary of {@code result} the text report ends with: operations, attempts and retries read,
     * the findings of each severity, those the baseline suppressed, and whether it passed.
     */
    public String summary(AuditResult result) {
        return Summaries.line(report(result), v -> v);
    }

    /**
     * The report of {@code result}: its inputs, findings, baseline and timelines with this auditor's rules and
     * --fail-on.
     */
    private Report report(AuditResult result) {
        return new Report(NAME, version(), result.inputs(), result.findings(), settings.failOn(), rules(), result.baseline(),
                result.suppressed()).withTimelines(result.timelines());
    }

    /** The version of the library, from the jar's manifest or the build's version file. */
    public static String version() {
        String v = RetryAudit.class.getPackage().getImplementationVersion();
        if (v != null) {
            return v;
        }
        try (InputStream in = RetryAudit.class.getResourceAsStream("/dev/retryaudit/version.txt")) {
            return in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Hands every operation to {@code engine}; what they were, as read from {@code source} in {@code format}. */
    static InputSummary feed(Engine engine, Iterable<Operation> operations, String source, String format) {
        long ops = 0;
        long attempts = 0;
        for (Operation op : operations) {
            engine.accept(op);
            ops++;
            attempts += op.attempts().size();
        }
        return new InputSummary(source, format, ops, attempts);
    }

    /** A new engine with this auditor's policy and rules, for one part of a split audit. */
    Engine partEngine() {
        return new Engine(policy, selection);
    }

    private Engine engine() {
        return new Engine(policy, selection).keep(settings.timelines());
    }

    /** The result of {@code inputs} audited by {@code engine}: its findings less those the baseline holds. */
    AuditResult result(List<InputSummary> inputs, Engine engine) {
        List<Finding> all = engine.finish();
        if (baseline == null) {
            return new AuditResult(inputs, all, null, 0, engine.kept());
        }
        List<Finding> kept = baseline.unsuppressed(all);
        return new AuditResult(inputs, kept, baseline.source(), all.size() - kept.size(), engine.kept());
    }

    /** What {@code input}, which is not operations, reads: a store's answer is fetched here. */
    private ReadInput reading(AuditInput input) throws RetryAuditException {
        return input instanceof StoreInput s ? s.fetch(settings.limits().bytes()) : (ReadInput) input;
    }

    private List<InputSummary> read(ReadInput r, Consumer<Operation> out) throws RetryAuditException {
        InputFormat format = r.format() == null ? settings.inputFormat() : r.format();
        return reading(() -> new InputSet(format, settings.limits()).readAll(r.sources(), r.in(), out));
    }

    /** Something read from an input, whose errors the API reports as one diagnostic line. */
    private interface Reading<T> {
        T read() throws InputException;
    }

    private static <T> T reading(Reading<T> r) throws RetryAuditException {
        try {
            return r.read();
        } catch (InputException e) {
            throw RetryAuditException.of(e);
        }
    }
}
