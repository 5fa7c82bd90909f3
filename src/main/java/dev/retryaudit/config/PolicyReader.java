package dev.retryaudit.config;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.json.GrpcStatusValue;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Suggestions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a policy file as strictly as our trace formats: unknown fields, duplicate
 * keys, wrong types, out-of-range numbers, bad enum values, unknown rule ids and trailing content
 * are rejected; every field is optional and null is the same as absent.
 */
public final class PolicyReader {
    /** The largest millisecond or second value a policy may hold: large enough for any real setting, far from overflow. */
    private static final long MAX_DURATION = 1_000_000_000_000_000L;

    private static final List<String> TOP_FIELDS = List.of("version", "max_attempts", "min_backoff_ms", "retry_budget",
            "retry_after", "non_retryable_statuses", "retryable_rejections", "validation_loop", "tools", "rules",
            "grpc", "$schema");
    private static final List<String> BUDGET_FIELDS = List.of("ratio", "min_retries");
    private static final List<String> RETRY_AFTER_FIELDS = List.of("tolerance_ms", "http_date_skew_ms", "max_seconds");
    private static final List<String> TOOL_FIELDS = List.of("effect", "max_attempts", "dedupes_by_key");
    private static final List<String> RULE_FIELDS = List.of("severity", "enabled");
    private static final List<String> GRPC_FIELDS = List.of("reads", "writes", "non_retryable_statuses");

    private final StrictDocument doc;
    private final JsonCursor c;
    private final RuleIds ruleIds;

    private int maxAttempts = Policy.DEFAULTS.maxAttempts();
    private long minBackoffMs = Policy.DEFAULTS.minBackoffMs();
    private double ratio = Policy.DEFAULTS.retryBudgetRatio();
    private int minRetries = Policy.DEFAULTS.retryBudgetMinRetries();
    private long toleranceMs = Policy.DEFAULTS.retryAfterToleranceMs();
    private long skewMs = Policy.DEFAULTS.httpDateSkewMs();
    private long maxSeconds = Policy.DEFAULTS.retryAfterMaxSeconds();
    private Set<Integer> nonRetryable = Policy.DEFAULTS.nonRetryableStatuses();
    private Set<Integer> retryable = Policy.DEFAULTS.retryableRejections();
    private int validationLoop = Policy.DEFAULTS.validationLoop();
    /** The tools' and rules' settings, as they are read. */
    private final Policy.Builder settings = Policy.builder();
    private List<String> grpcReads = Policy.DEFAULTS.grpcReads();
    private List<String> grpcWrites = Policy.DEFAULTS.grpcWrites();
    private Set<GrpcStatus> grpcNonRetryable = Policy.DEFAULTS.grpcNonRetryableStatuses();

    private PolicyReader(StrictDocument doc, RuleIds ruleIds) {
        this.doc = doc;
        this.c = doc.cursor();
        this.ruleIds = ruleIds;
    }

    /**
     * Reads the policy file at {@code file}, reported under the name the user gave it. A missing or
     * unreadable file is an unreadable input (exit 66); {@code ruleIds} are the ids {@code rules} may name, and those it
     * must refuse.
     */
    public static Policy read(Path file, RuleIds ruleIds, Limits limits) throws InputException {
        return StrictDocument.read(new InputSet.Source(file.toString(), file), limits,
                doc -> new PolicyReader(doc, ruleIds).document());
    }

    /** Reads a policy from a stream; {@code source} names it in errors. */
    public static Policy read(InputStream raw, String source, RuleIds ruleIds, Limits limits)
            throws IOException, InputException {
        return StrictDocument.read(raw, source, limits, doc -> new PolicyReader(doc, ruleIds).document());
    }

    private Policy document() throws IOException, InputException {
        doc.object("empty input: expected a policy (a JSON object)", "a policy", this::topField);
        return settings.maxAttempts(maxAttempts).minBackoffMs(minBackoffMs).retryBudget(ratio, minRetries)
                .retryAfter(toleranceMs, skewMs, maxSeconds).nonRetryableStatuses(nonRetryable)
                .retryableRejections(retryable).validationLoop(validationLoop)
                .grpc(grpcReads, grpcWrites, grpcNonRetryable).build();
    }

    private void topField(String name) throws IOException, InputException {
        switch (name) {
            case "version" -> doc.version(true, "version");
            case "$schema" -> c.optString();
            case "max_attempts" -> maxAttempts = orElse(c.optInt(1, Integer.MAX_VALUE), maxAttempts);
            case "min_backoff_ms" -> minBackoffMs = orElse(c.optLong(0, MAX_DURATION), minBackoffMs);
            case "retry_budget" -> object("the retry budget", this::budgetField);
            case "retry_after" -> object("the Retry-After settings", this::retryAfterField);
            case "non_retryable_statuses" -> nonRetryable = statuses(nonRetryable);
            case "retryable_rejections" -> retryable = statuses(retryable);
            case "validation_loop" -> validationLoop = orElse(c.optInt(1, Integer.MAX_VALUE), validationLoop);
            case "tools" -> object("the per-tool settings", this::tool);
            case "rules" -> object("the per-rule settings", this::rule);
            case "grpc" -> object("the gRPC settings", this::grpcField);
            default -> throw c.unknownField(name, TOP_FIELDS);
        }
    }

    private void budgetField(String name) throws IOException, InputException {
        switch (name) {
            case "ratio" -> {
                double r = c.optNumber(0);
                if (r > 1) {
                    throw c.error("number out of range: must be between 0 and 1 (retries per operation)");
                }
                ratio = Double.isNaN(r) ? ratio : r;
            }
            case "min_retries" -> minRetries = orElse(c.optInt(0, Integer.MAX_VALUE), minRetries);
            default -> throw c.unknownField(name, BUDGET_FIELDS);
        }
    }

    private void retryAfterField(String name) throws IOException, InputException {
        switch (name) {
            case "tolerance_ms" -> toleranceMs = orElse(c.optLong(0, MAX_DURATION), toleranceMs);
            case "http_date_skew_ms" -> skewMs = orElse(c.optLong(0, MAX_DURATION), skewMs);
            case "max_seconds" -> maxSeconds = orElse(c.optLong(0, MAX_DURATION), maxSeconds);
            default -> throw c.unknownField(name, RETRY_AFTER_FIELDS);
        }
    }

    private void grpcField(String name) throws IOException, InputException {
        switch (name) {
            case "reads" -> grpcReads = methods(grpcReads);
            case "writes" -> grpcWrites = methods(grpcWrites);
            case "non_retryable_statuses" -> grpcNonRetryable = grpcStatuses(grpcNonRetryable);
            default -> throw c.unknownField(name, GRPC_FIELDS);
        }
    }

    /**
     * A list of gRPC methods: full names ({@code package.Service/Method}) or patterns in which {@code *}
     * is any run of characters, each once; null keeps the default.
     */
    private List<String> methods(List<String> absent) throws IOException, InputException {
        if (c.isNull()) {
            return absent;
        }
        c.expectArray("a list of gRPC methods");
        Set<String> methods = new LinkedHashSet<>();
        while (c.next() != JsonToken.END_ARRAY) {
            String m = c.optString();
            if (m == null) {
                throw c.error("must not be null");
            }
            int slash = m.indexOf('/');
            if (slash <= 0 || slash != m.lastIndexOf('/') || slash == m.length() - 1 || !m.chars().allMatch(
                    ch -> ch > 0x20 && ch < 0x7f)) {
                throw c.error("expected a full gRPC method name, package.Service/Method, or a pattern of one with *"
                        + " (one /, no spaces)");
            }
            if (!methods.add(m)) {
                throw c.error("this method is listed twice");
            }
        }
        return List.copyOf(methods);
    }

    /** A list of gRPC status codes, by name ({@code INVALID_ARGUMENT}) or number, each once; null keeps the default. */
    private Set<GrpcStatus> grpcStatuses(Set<GrpcStatus> absent) throws IOException, InputException {
        if (c.isNull()) {
            return absent;
        }
        c.expectArray("a list of gRPC status codes");
        Set<GrpcStatus> statuses = EnumSet.noneOf(GrpcStatus.class);
        while (c.next() != JsonToken.END_ARRAY) {
            GrpcStatus s = GrpcStatusValue.read(c);
            if (s == null) {
                throw c.error("must not be null");
            }
            if (!statuses.add(s)) {
                throw c.error("status " + s + " is listed twice");
            }
        }
        return statuses;
    }

    private void tool(String tool) throws IOException, InputException {
        Effect[] effect = {null};
        Integer[] max = {null};
        Boolean[] dedupes = {null};
        boolean present = object("a tool's settings", name -> {
            switch (name) {
                case "effect" -> effect[0] = c.optEnum(Effect.class);
                case "max_attempts" -> max[0] = c.optInt(1, Integer.MAX_VALUE);
                case "dedupes_by_key" -> dedupes[0] = c.optBoolean();
                default -> throw c.unknownField(name, TOOL_FIELDS);
            }
        });
        if (present) {
            settings.tool(tool, effect[0], max[0], dedupes[0]);
        }
    }

    private void rule(String id) throws IOException, InputException {
        String refusal = ruleIds.refusal(id);
        if (refusal != null) {
            throw InputException.rejected(c.source(), doc.nameLine(), doc.nameColumn(), c.path(), refusal);
        }
        if (!ruleIds.configurable().contains(id)) {
            List<String> close = Suggestions.closestAll(id, ruleIds.configurable(), 3);
            throw InputException.rejected(c.source(), doc.nameLine(), doc.nameColumn(), c.path(),
                    "unknown rule id" + (close.isEmpty() ? "" : " (did you mean " + String.join(", ", close) + "?)"));
        }
        Severity[] severity = {null};
        Boolean[] enabled = {null};
        boolean present = object("a rule's settings", name -> {
            switch (name) {
                case "severity" -> severity[0] = c.optEnum(Severity.class);
                case "enabled" -> enabled[0] = c.optBoolean();
                default -> throw c.unknownField(name, RULE_FIELDS);
            }
        });
        if (present) {
            settings.rule(id, severity[0], enabled[0]);
        }
    }

    /** A list of HTTP statuses (100..599, each once); null keeps the default. */
    private Set<Integer> statuses(Set<Integer> absent) throws IOException, InputException {
        if (c.isNull()) {
            return absent;
        }
        c.expectArray("a list of HTTP statuses");
        Set<Integer> statuses = new LinkedHashSet<>();
        while (c.next() != JsonToken.END_ARRAY) {
            Integer s = c.optInt(100, 599);
            if (s == null) {
                throw c.error("must not be null");
            }
            if (!statuses.add(s)) {
                throw c.error("status " + s + " is listed twice");
            }
        }
        return statuses;
    }

    /** Reads an object field by field; returns false (and reads nothing) for null. */
    private boolean object(String what, StrictDocument.Fields field) throws IOException, InputException {
        if (c.isNull()) {
            return false;
        }
        c.expectObject(what);
        doc.fields(field);
        return true;
    }


    private static <T> T orElse(T value, T absent) {
        return value == null ? absent : value;
    }
}
