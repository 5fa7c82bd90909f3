package dev.retryaudit.api;

import dev.retryaudit.config.PolicyReader;
import dev.retryaudit.config.ToolsReader;
import dev.retryaudit.json.ParseFailures;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.ReportFormat;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything that configures an audit, the one settings value that the command line, MCP, Spark and
 * library callers build: the policy (a value or a JSON file), the rule selection, the input limits and
 * format, the report format, {@code --fail-on}, a baseline report and the timelines to keep. Immutable;
 * every name and value is checked when it is built, so a {@link RetryAudit} made from it can fail only on
 * the files it names. Serializable when its custom rules are.
 */
public final class AuditSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final AuditSettings DEFAULTS = builder().build();

    private final Policy policy;
    // Paths are held as their names: a Path is not serializable.
    private final String policyFile;
    private final String toolsFile;
    private final List<String> enable;
    private final List<String> disable;
    private final List<Rule> rules;
    private final Limits limits;
    private final InputFormat inputFormat;
    private final ReportFormat reportFormat;
    private final FailOn failOn;
    private final String baseline;
    private final int timelines;

    private AuditSettings(Builder b) {
        policy = b.policy;
        policyFile = b.policyFile;
        toolsFile = b.toolsFile;
        enable = List.copyOf(b.enable);
        disable = List.copyOf(b.disable);
        rules = List.copyOf(b.rules);
        limits = b.limits;
        inputFormat = b.inputFormat;
        reportFormat = b.reportFormat;
        failOn = b.failOn;
        baseline = b.baseline;
        timelines = b.timelines;
        checkNames();
    }

    /** A builder starting from the defaults: the built-in policy, every built-in rule on, the default limits. */
    public static Builder builder() {
        return new Builder();
    }

    /** The built-in policy and rules, the default limits, JSON, {@code --fail-on error}. */
    public static AuditSettings defaults() {
        return DEFAULTS;
    }

    /** A builder holding these settings, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.policy = policy;
        b.policyFile = policyFile;
        b.toolsFile = toolsFile;
        b.enable.addAll(enable);
        b.disable.addAll(disable);
        b.rules.addAll(rules);
        b.limits = limits;
        b.inputFormat = inputFormat;
        b.reportFormat = reportFormat;
        b.failOn = failOn;
        b.baseline = baseline;
        b.timelines = timelines;
        return b;
    }

    /** The policy given as a value ({@link Policy#DEFAULTS} unless set); a {@link #policyFile} takes its place. */
    public Policy policy() {
        return policy;
    }

    /** The JSON policy file ({@code --policy}) an auditor reads when it is made, if one was set. */
    public Optional<Path> policyFile() {
        return Optional.ofNullable(policyFile).map(Path::of);
    }

    /** The tools file ({@code --tools}): which tools write, for the tools the policy does not name. */
    public Optional<Path> toolsFile() {
        return Optional.ofNullable(toolsFile).map(Path::of);
    }

    /** The rule ids and families enabled ({@code --enable}), in the order given. */
    public List<String> enable() {
        return enable;
    }

    /** The rule ids and families disabled ({@code --disable}), in the order given. */
    public List<String> disable() {
        return disable;
    }

    /** The caller's own rules, run after the built-in ones unless disabled. */
    public List<Rule> rules() {
        return rules;
    }

    public Limits limits() {
        return limits;
    }

    /** How inputs are read; {@link InputFormat#AUTO} detects the format. */
    public InputFormat inputFormat() {
        return inputFormat;
    }

    /** The report format ({@code --format}) that {@link RetryAudit#writeReport} writes. */
    public ReportFormat reportFormat() {
        return reportFormat;
    }

    /** The lowest severity that makes a report fail ({@code --fail-on}). */
    public FailOn failOn() {
        return failOn;
    }

    /** A previous JSON report ({@code --baseline}) whose findings are left out of results, if one was set. */
    public Optional<Path> baseline() {
        return Optional.ofNullable(baseline).map(Path::of);
    }

    /** How many operations with findings are kept for reports that draw their timelines; 0 keeps none. */
    public int timelines() {
        return timelines;
    }

    /** The built-in rules, then the custom ones: what the selection chooses from. */
    List<Rule> catalogue() {
        List<Rule> catalogue = new ArrayList<>(RuleRegistry.all());
        catalogue.addAll(rules);
        return catalogue;
    }

    /** The baseline's name as the report gives it, or null. */
    String baselineName() {
        return baseline;
    }

    /**
     * Refuses a custom rule whose id another rule has, a name in {@code enable} or {@code disable} that is no
     * rule id or family of the catalogue, and a name in both.
     */
    private void checkNames() {
        Set<String> names = new LinkedHashSet<>();
        Set<String> ids = new LinkedHashSet<>();
        for (Rule r : catalogue()) {
            if (!ids.add(r.info().id())) {
                throw new IllegalArgumentException("rule id registered twice: " + r.info().id());
            }
            names.add(r.info().family());
        }
        names.addAll(ids);
        for (List<String> given : List.of(enable, disable)) {
            for (String name : given) {
                if (!names.contains(name)) {
                    throw new IllegalArgumentException(RuleRegistry.unknown(name, names));
                }
            }
        }
        enable.stream().filter(disable::contains).findFirst().ifPresent(both -> {
            throw new IllegalArgumentException("the same rule or family is both enabled and disabled: " + both);
        });
    }

    /** Settings under construction; not thread-safe. {@link #build} checks them. */
    public static final class Builder {
        private Policy policy = Policy.DEFAULTS;
        private String policyFile;
        private String toolsFile;
        private final List<String> enable = new ArrayList<>();
        private final List<String> disable = new ArrayList<>();
        private final List<Rule> rules = new ArrayList<>();
        private Limits limits = Limits.DEFAULTS;
        private InputFormat inputFormat = InputFormat.AUTO;
        private ReportFormat reportFormat = ReportFormat.JSON;
        private FailOn failOn = FailOn.ERROR;
        private String baseline;
        private int timelines;

        private Builder() {
        }

        /** The thresholds and per-tool settings; replaces a policy file set earlier. */
        public Builder policy(Policy value) {
            policy = Objects.requireNonNull(value, "policy");
            policyFile = null;
            return this;
        }

        /** A JSON policy file ({@code --policy}), read when an auditor is made; replaces a policy value. */
        public Builder policy(Path file) {
            policyFile = Objects.requireNonNull(file, "file").toString();
            policy = Policy.DEFAULTS;
            return this;
        }

        /**
         * A JSON policy document, read now from {@code document} (named {@code name} in diagnostics) under the
         * limits and for the rules set so far; replaces a policy file set earlier. A document that cannot be
         * read or applied is a {@link RetryAuditException}.
         */
        public Builder policy(InputStream document, String name) throws RetryAuditException {
            List<Rule> catalogue = new ArrayList<>(RuleRegistry.all());
            catalogue.addAll(rules);
            try {
                return policy(PolicyReader.read(document, name, PolicyIds.of(catalogue), limits));
            } catch (InputException e) {
                throw RetryAuditException.of(e);
            } catch (IOException e) {
                throw RetryAuditException.of(ParseFailures.unreadable(name, e));
            }
        }

        /**
         * A tools document (an MCP {@code tools/list} result or a tools file), read now from {@code document}
         * (named {@code name} in diagnostics) and applied to the policy value, whose per-tool settings come
         * first; a policy file set earlier, read only when an auditor is made, is an {@link IllegalStateException}.
         */
        public Builder tools(InputStream document, String name) throws RetryAuditException {
            if (policyFile != null) {
                throw new IllegalStateException("a tools document applies to a policy value, not to a policy file");
            }
            try {
                policy = ToolsReader.apply(policy, document, name, limits);
            } catch (InputException e) {
                throw RetryAuditException.of(e);
            } catch (IOException e) {
                throw RetryAuditException.of(ParseFailures.unreadable(name, e));
            }
            return this;
        }

        /**
         * A tools file ({@code --tools}): an MCP {@code tools/list} result or a tools file that says which
         * tools read and which deduplicate; read when an auditor is made, after the policy, whose per-tool
         * settings come first.
         */
        public Builder tools(Path file) {
            toolsFile = Objects.requireNonNull(file, "file").toString();
            return this;
        }

        /** Enables rule ids or families, as {@code --enable}. */
        public Builder enable(String... names) {
            return enable(List.of(names));
        }

        /** Enables rule ids or families, as {@code --enable}. */
        public Builder enable(Collection<String> names) {
            enable.addAll(names);
            return this;
        }

        /** Disables rule ids or families, as {@code --disable}. */
        public Builder disable(String... names) {
            return disable(List.of(names));
        }

        /** Disables rule ids or families, as {@code --disable}. */
        public Builder disable(Collection<String> names) {
            disable.addAll(names);
            return this;
        }

        /** Adds a rule of the caller's own after the built-in ones; on unless disabled. */
        public Builder rule(Rule rule) {
            rules.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        /** The limits set so far, which a {@link Setting} of one limit changes. */
        Limits currentLimits() {
            return limits;
        }

        public Builder limits(Limits value) {
            limits = Objects.requireNonNull(value, "limits");
            return this;
        }

        /** How to read inputs; {@link InputFormat#AUTO} (the default) detects the format. */
        public Builder inputFormat(InputFormat value) {
            inputFormat = Objects.requireNonNull(value, "inputFormat");
            return this;
        }

        /** The format {@link RetryAudit#writeReport} writes ({@code --format}); JSON by default. */
        public Builder reportFormat(ReportFormat value) {
            reportFormat = Objects.requireNonNull(value, "reportFormat");
            return this;
        }

        /** The lowest severity that makes a report fail, as {@code --fail-on}. */
        public Builder failOn(FailOn value) {
            failOn = Objects.requireNonNull(value, "failOn");
            return this;
        }

        /**
         * A previous JSON report ({@code --baseline}), read when an auditor is made: findings whose fingerprint
         * it holds are left out of results and counted.
         */
        public Builder baseline(Path report) {
            baseline = Objects.requireNonNull(report, "report").toString();
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

        /**
         * The settings; an unknown rule or family (with the closest names there are), a name both enabled and
         * disabled, or a custom rule with a taken id is an {@link IllegalArgumentException}.
         */
        public AuditSettings build() {
            return new AuditSettings(this);
        }
    }
}
