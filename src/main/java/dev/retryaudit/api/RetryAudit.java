package dev.retryaudit.api;

import dev.retryaudit.config.BaselineReader;
import dev.retryaudit.config.PolicyReader;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.Baseline;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.Report;
import dev.retryaudit.report.ReportFormat;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.Engine;
import dev.retryaudit.rules.engine.ProbeCatalogue;
import dev.retryaudit.rules.engine.RuleRegistry;
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
import java.util.Set;
import java.util.function.Consumer;

/**
 * The library entry point: an immutable, thread-safe auditor built from a policy and a rule
 * selection. It audits operations built in code ({@link #operation}) or read from any supported
 * format, and writes reports. Each audit call is independent; share one instance freely.
 */
public final class RetryAudit {
    /** The tool's name, as reports give it. */
    public static final String NAME = "retry-audit";

    /** The source name of operations audited from code. */
    private static final String OPERATIONS = "<operations>";

    /** The format name of operations audited from code. */
    private static final String API = "api";

    private final Policy policy;
    private final RuleSelection selection;
    private final Limits limits;
    private final InputFormat format;
    private final FailOn failOn;
    private final Baseline baseline;
    private final int timelines;

    private RetryAudit(Builder b) throws RetryAuditException {
        this.limits = b.limits;
        this.format = b.format;
        this.failOn = b.failOn;
        this.timelines = b.timelines;
        List<Rule> catalogue = new ArrayList<>(RuleRegistry.all());
        catalogue.addAll(b.custom);
        Set<String> ids = new LinkedHashSet<>();
        Set<String> names = new LinkedHashSet<>();
        for (Rule r : catalogue) {
            if (!ids.add(r.info().id())) {
                throw new IllegalArgumentException("rule id registered twice: " + r.info().id());
            }
            names.add(r.info().family());
        }
        names.addAll(ids);
        for (String name : concat(b.enable, b.disable)) {
            if (!names.contains(name)) {
                throw new IllegalArgumentException("unknown rule or family: " + name);
            }
        }
        this.policy = b.policyFile == null ? b.policy
                : reading(() -> PolicyReader.read(b.policyFile, ProbeCatalogue.policyIds(ids), limits));
        this.baseline = b.baselineFile == null ? null : reading(() -> BaselineReader.read(b.baselineFile, limits));
        this.selection = RuleSelection.of(catalogue, policy, b.enable, b.disable);
    }

    /** A builder starting from the built-in policy, every built-in rule on, the default limits. */
    public static Builder builder() {
        return new Builder();
    }

    /** An auditor with the built-in policy and rules. */
    public static RetryAudit defaults() {
        try {
            return builder().build();
        } catch (RetryAuditException e) {
            throw new IllegalStateException("the built-in policy is valid", e);
        }
    }

    /** Starts building an operation with {@code id} run by {@code tool}. */
    public static OperationBuilder operation(String id, String tool) {
        return new OperationBuilder(id, tool);
    }

    public Policy policy() {
        return policy;
    }

    /** The enabled rules, in catalogue order, each at the severity its findings get. */
    public List<RuleInfo> rules() {
        return selection.configured();
    }

    /** Audits operations built in code or read earlier; the summary names the input {@code <operations>}. */
    public AuditResult audit(Iterable<Operation> operations) {
        return audit(operations, OPERATIONS, null);
    }

    /**
     * Audits operations read elsewhere from {@code source} in {@code format} (null for operations built in
     * code): the report's input summary names that source and format.
     */
    public AuditResult audit(Iterable<Operation> operations, String source, InputFormat format) {
        Engine engine = engine();
        return result(List.of(feed(engine, operations, source, format == null ? API : format.id())), engine);
    }

    /**
     * Audits operations as they come from {@code operations} (which may be lazy and is read once,
     * holding none), then hands every finding, in report order, to {@code findings}.
     */
    public InputSummary audit(Iterable<Operation> operations, Consumer<? super Finding> findings) {
        AuditResult result = audit(operations);
        result.findings().forEach(findings);
        return result.inputs().get(0);
    }

    /**
     * Audits one part of a larger input (a partition, a file, a shard), leaving what only the whole
     * input can show to {@link #merge}. Operations of one run, key or parent chain may be in any part.
     */
    public AuditPart auditPart(Iterable<Operation> operations) {
        Engine engine = new Engine(policy, selection);
        InputSummary fed = feed(engine, operations, OPERATIONS, API);
        return new AuditPart(engine.partial(), limits, fed.operations(), fed.attempts());
    }

    /**
     * The findings of the whole input whose parts, audited by auditors with this one's policy,
     * rules and limits, are {@code parts}: the same as one pass over it, whatever the split and order.
     * A part audited otherwise is an {@link IllegalArgumentException} that says what differs.
     */
    public AuditResult merge(Collection<AuditPart> parts) {
        Engine engine = new Engine(policy, selection);
        long ops = 0;
        long attempts = 0;
        for (AuditPart p : parts) {
            if (!p.limits().equals(limits)) {
                throw new IllegalArgumentException("a part audited with other limits cannot merge: " + p.limits()
                        + " is not " + limits);
            }
            engine.merge(p.state());
            ops += p.operations();
            attempts += p.attempts();
        }
        return result(List.of(new InputSummary(OPERATIONS, API, ops, attempts)), engine);
    }

    /** Reads and audits files as one input set, holding no operation longer than the rules need. */
    public AuditResult audit(List<Path> files) throws RetryAuditException {
        List<InputSet.Source> sources = files.stream().map(p -> new InputSet.Source(p.toString(), p)).toList();
        return auditSources(sources, InputStream.nullInputStream());
    }

    /**
     * Reads and audits inputs named as on the command line, as one input set: {@code "-"} (at most once) is
     * {@code stdin}, which is read to its end and not closed; a name the file system cannot represent is an
     * input that cannot be read.
     */
    public AuditResult audit(List<String> names, InputStream stdin) throws RetryAuditException {
        if (names.stream().filter("-"::equals).count() > 1) {
            throw new IllegalArgumentException("standard input (-) can be named only once");
        }
        return auditSources(names.stream().map(InputSet.Source::of).toList(), stdin);
    }

    /** Reads and audits one stream named {@code source} (for locations and fingerprints). */
    public AuditResult audit(InputStream in, String source) throws RetryAuditException {
        return auditSources(List.of(new InputSet.Source(source, null)), in);
    }

    /** Reads every operation of a file in any supported format (detected, or the builder's input format). */
    public List<Operation> read(Path file) throws RetryAuditException {
        List<Operation> out = new ArrayList<>();
        read(List.of(new InputSet.Source(file.toString(), file)), InputStream.nullInputStream(), out::add);
        return out;
    }

    /** Reads every operation of a stream named {@code source}; the stream is read to its end, not closed. */
    public List<Operation> read(InputStream in, String source) throws RetryAuditException {
        List<Operation> out = new ArrayList<>();
        read(List.of(new InputSet.Source(source, null)), in, out::add);
        return out;
    }

    /** Writes the report of {@code result} in {@code format} (no colour) to {@code out}, which stays open. */
    public void writeReport(AuditResult result, ReportFormat format, OutputStream out) throws IOException {
        format.writer(false).write(report(result), out);
    }

    /**
     * The report of {@code result}: its inputs, findings, baseline and timelines with this auditor's rules and
     * --fail-on.
     */
    public Report report(AuditResult result) {
        return new Report(NAME, version(), result.inputs(), result.findings(), failOn, rules(), result.baseline(),
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

    private AuditResult auditSources(List<InputSet.Source> sources, InputStream stdin) throws RetryAuditException {
        Engine engine = engine();
        List<InputSummary> inputs = read(sources, stdin, engine::accept);
        return result(inputs, engine);
    }

    /** Hands every operation to {@code engine}; what they were, as read from {@code source} in {@code format}. */
    private static InputSummary feed(Engine engine, Iterable<Operation> operations, String source, String format) {
        long ops = 0;
        long attempts = 0;
        for (Operation op : operations) {
            engine.accept(op);
            ops++;
            attempts += op.attempts().size();
        }
        return new InputSummary(source, format, ops, attempts);
    }

    private Engine engine() {
        return new Engine(policy, selection).keep(timelines);
    }

    /** The result of {@code inputs} audited by {@code engine}: its findings less those the baseline holds. */
    private AuditResult result(List<InputSummary> inputs, Engine engine) {
        List<Finding> all = engine.finish();
        if (baseline == null) {
            return new AuditResult(inputs, all, null, 0, engine.kept());
        }
        List<Finding> kept = baseline.unsuppressed(all);
        return new AuditResult(inputs, kept, baseline.source(), all.size() - kept.size(), engine.kept());
    }

    private List<InputSummary> read(List<InputSet.Source> sources, InputStream stdin, Consumer<Operation> out)
            throws RetryAuditException {
        return reading(() -> new InputSet(format, limits).readAll(sources, stdin, out));
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

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Settings of a {@link RetryAudit}; not thread-safe, build once and share the result. */
    public static final class Builder {
        private Policy policy = Policy.DEFAULTS;
        private Path policyFile;
        private final List<String> enable = new ArrayList<>();
        private final List<String> disable = new ArrayList<>();
        private final List<Rule> custom = new ArrayList<>();
        private Limits limits = Limits.DEFAULTS;
        private InputFormat format = InputFormat.AUTO;
        private FailOn failOn = FailOn.ERROR;
        private String baselineFile;
        private int timelines;

        private Builder() {
        }

        /** The thresholds and per-tool settings; replaces a policy file set earlier. */
        public Builder policy(Policy value) {
            policy = Objects.requireNonNull(value, "policy");
            policyFile = null;
            return this;
        }

        /** A JSON policy file, read when the auditor is built ({@code --policy}). */
        public Builder policy(Path file) {
            policyFile = Objects.requireNonNull(file, "file");
            return this;
        }

        /** Enables rule ids or families, as {@code --enable}. */
        public Builder enable(String... names) {
            enable.addAll(List.of(names));
            return this;
        }

        /** Disables rule ids or families, as {@code --disable}. */
        public Builder disable(String... names) {
            disable.addAll(List.of(names));
            return this;
        }

        /** Adds a rule of the caller's own after the built-in ones; on unless disabled. */
        public Builder rule(Rule rule) {
            custom.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        public Builder limits(Limits value) {
            limits = Objects.requireNonNull(value, "limits");
            return this;
        }

        /** How to read inputs; {@link InputFormat#AUTO} (the default) detects the format. */
        public Builder inputFormat(InputFormat value) {
            format = Objects.requireNonNull(value, "format");
            return this;
        }

        /** The lowest severity that makes a report fail, as {@code --fail-on}. */
        public Builder failOn(FailOn value) {
            failOn = Objects.requireNonNull(value, "failOn");
            return this;
        }

        /**
         * A previous JSON report ({@code --baseline}), named as on the command line and read when the auditor is
         * built: findings whose fingerprint it holds are left out of results and counted.
         */
        public Builder baseline(String report) {
            baselineFile = Objects.requireNonNull(report, "report");
            return this;
        }

        /**
         * Keeps up to {@code max} operations that got findings, in input order, for reports that draw their
         * timelines (HTML; see {@link AuditResult#timelines()}); 0, the default, keeps none.
         */
        public Builder timelines(int max) {
            if (max < 0) {
                throw new IllegalArgumentException("timelines must be at least 0: " + max);
            }
            timelines = max;
            return this;
        }

        /** The auditor; reads the policy and baseline files if they were set. */
        public RetryAudit build() throws RetryAuditException {
            return new RetryAudit(this);
        }
    }
}
