package dev.retryaudit.api;

import dev.retryaudit.json.Decimal;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.ReportFormat;
import dev.retryaudit.text.Escaping;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The settings of an audit that its front ends offer, declared once: each constant is one row (its name, the
 * kind of value it takes, the value's label, a description that gives the choices and the default, the check)
 * and applies a value to an {@link AuditSettings.Builder}, given as a command line's text ({@link #apply}) or as
 * a JSON value of a tool call ({@link #applyJson}); a bad value is an {@link IllegalArgumentException} that names
 * the option or argument and what it expects. The command line's options, the Spark job's and the MCP audit
 * tool's arguments are made from these rows, and each front end chooses the rows it offers. The constants are in
 * the order a front end applies them: the limits before the policy and tools documents, which are read under them.
 */
public enum Setting {
    INPUT_FORMAT(Row.choice("input-format", "FORMAT", "How to read the input", AuditInput.formats(),
            d -> d.inputFormat().id(), (b, v) -> b.inputFormat(InputFormat.parse(v)))),
    FORMAT(Row.choice("format", "FORMAT", "Report format on stdout", ReportFormat.ids(), d -> d.reportFormat().id(),
            (b, v) -> b.reportFormat(ReportFormat.parse(v)))),
    LIMIT_BYTES(Row.count(Limit.BYTES, "Most input bytes, all files together")),
    LIMIT_OPERATIONS(Row.count(Limit.OPERATIONS, "Most operations")),
    LIMIT_ATTEMPTS(Row.count(Limit.ATTEMPTS, "Most attempts in one operation")),
    LIMIT_STRING(Row.count(Limit.STRING, "Longest string value, in characters (code points); field names may have "
            + "as many, and at least " + Row.shown(Limits.MIN_NAME_LENGTH))),
    LIMIT_DEPTH(Row.count(Limit.DEPTH, "Deepest nesting, 1.." + Row.shown(Limits.MAX_DEPTH))),
    POLICY(Row.file("policy", "Thresholds, per-tool settings and rule severities (a JSON policy file; default: built-in).",
            AuditSettings.Builder::policy, AuditSettings.Builder::policy)),
    TOOLS(Row.file("tools", "Which tools write, for tool calls the trace does not tell: an MCP tools/list result "
            + "(readOnlyHint, idempotentHint) or a tools file; the policy's per-tool settings come first.",
            AuditSettings.Builder::tools, AuditSettings.Builder::tools)),
    ENABLE(Row.names("enable", "Enable a rule id or a whole family; repeatable.", (b, v) -> b.enable(v))),
    DISABLE(Row.names("disable", "Disable a rule id or a whole family; repeatable.", (b, v) -> b.disable(v))),
    FAIL_ON(Row.choice("fail-on", "SEVERITY", "Lowest severity that makes the exit code 2", FailOn.ids(),
            d -> d.failOn().id(), (b, v) -> b.failOn(FailOn.parse(v))));

    /**
     * What a setting's value is, which says how a front end takes it: one of {@link Setting#choices()} by its
     * id; a whole number from 1 to {@link Setting#max()}, an input {@link Setting#limit()}; a JSON
     * {@link Setting#document()}; or a rule id or family, each value of a {@link Setting#repeatable()} setting
     * adding one.
     */
    private enum Kind {
        CHOICE,
        COUNT,
        FILE,
        NAMES
    }

    private final Row row;

    Setting(Row row) {
        this.row = row;
    }

    /**
     * The row that sets the input limit {@code limit}; the heap ({@link Limit#MEMORY}) has none: an
     * {@link IllegalArgumentException}.
     */
    public static Setting of(Limit limit) {
        for (Setting s : values()) {
            if (s.row.limit == limit) {
                return s;
            }
        }
        throw new IllegalArgumentException("no setting raises the " + limit.id() + " limit");
    }

    /** The name, as the command line spells it without its dashes: {@code fail-on}, {@code limit-depth}. */
    public String id() {
        return row.id;
    }

    /** The command line's option: {@code --fail-on}. */
    public String option() {
        return "--" + row.id;
    }

    /**
     * The tool call's argument, in snake case: {@code fail_on}; a limit is a member of the {@code limits} object,
     * {@code limits.depth}.
     */
    public String argument() {
        return row.limit == null ? row.id.replace('-', '_') : "limits." + row.limit.id();
    }

    /**
     * Whether the setting takes a JSON document: a file's path on a command line, the document itself in a tool
     * call ({@link #read}).
     */
    public boolean document() {
        return row.kind == Kind.FILE;
    }

    /** Whether the setting may be given more than once, each value adding a rule id or family. */
    public boolean repeatable() {
        return row.kind == Kind.NAMES;
    }

    /** What the value is called in help: {@code FILE}, {@code SEVERITY}, {@code N}. */
    public String label() {
        return row.label;
    }

    /** One or two sentences for help, with the choices and the default, if the setting has them. */
    public String description() {
        return row.description;
    }

    /** The ids a setting that chooses takes, in the order help lists them; empty for another setting. */
    public List<String> choices() {
        return row.choices;
    }

    /** The value an audit has when the setting is not given, as a command line would give it; empty when none. */
    public Optional<String> defaultValue() {
        return Optional.ofNullable(row.defaultValue);
    }

    /** The input limit the setting sets, a whole number from 1 to {@link #max()}; empty for another setting. */
    public Optional<Limit> limit() {
        return Optional.ofNullable(row.limit);
    }

    /** The largest value a limit's setting takes (its least is 1); 0 for another setting. */
    public long max() {
        return row.limit == null ? 0 : Limits.max(row.limit);
    }

    /**
     * Applies the value {@code text}, as a command line gives it (a document setting's is a path, a
     * repeatable one's one name), to {@code b}; a bad value is an {@link IllegalArgumentException}:
     * {@code invalid value for option '--fail-on': expected one of error, warning, note, never}.
     */
    public AuditSettings.Builder apply(AuditSettings.Builder b, String text) {
        String invalid = "invalid value for option '" + option() + "': ";
        switch (row.kind) {
            case CHOICE -> row.apply.to(b, choice(text, invalid));
            case COUNT -> {
                int digits = text != null && (text.startsWith("-") || text.startsWith("+")) ? 1 : 0;
                if (text == null || text.length() == digits || !Decimal.isDigits(text, digits)) {
                    throw new IllegalArgumentException(invalid + "expected a whole number, found "
                            + Escaping.controls(String.valueOf(text)));
                }
                limit(b, new BigDecimal(text), invalid);
            }
            case FILE -> {
                try {
                    row.apply.to(b, AuditInput.path(text));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(invalid + e.getMessage(), e);
                }
            }
            case NAMES -> row.apply.to(b, text);
        }
        return b;
    }

    /**
     * Applies the JSON value {@code value} (a string, an array of strings, a number; null leaves the setting as
     * it is) to {@code b}; a bad value is an {@link IllegalArgumentException}:
     * {@code invalid value for 'limits.depth': must be at least 1}. A document setting takes its document
     * through {@link #read} instead: an {@link IllegalStateException}.
     */
    public AuditSettings.Builder applyJson(AuditSettings.Builder b, Object value) {
        if (value == null) {
            return b;
        }
        String invalid = "invalid value for '" + argument() + "': ";
        switch (row.kind) {
            case CHOICE -> {
                if (!(value instanceof String s)) {
                    throw new IllegalArgumentException(invalid + "expected a string");
                }
                row.apply.to(b, choice(s, invalid));
            }
            case COUNT -> {
                if (!whole(value)) {
                    throw new IllegalArgumentException(invalid + "expected a whole number");
                }
                limit(b, new BigDecimal(value.toString()), invalid);
            }
            case NAMES -> {
                if (!(value instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
                    throw new IllegalArgumentException(invalid + "expected an array of strings");
                }
                list.forEach(name -> row.apply.to(b, name));
            }
            case FILE -> throw new IllegalStateException(argument() + " is a document: read it with read");
        }
        return b;
    }

    /**
     * Reads the document of a {@link #document()} setting from {@code document} (named {@code name} in
     * diagnostics) into {@code b} now, under the limits set so far: a tool call's inline policy or tools. A
     * document that cannot be read or applied is a {@link RetryAuditException}; another kind is an
     * {@link IllegalStateException}.
     */
    public AuditSettings.Builder read(AuditSettings.Builder b, InputStream document, String name)
            throws RetryAuditException {
        if (row.read == null) {
            throw new IllegalStateException(argument() + " is no document");
        }
        return row.read.from(b, document, name);
    }

    private String choice(String text, String invalid) {
        if (!row.choices.contains(text)) {
            throw new IllegalArgumentException(invalid + "expected one of " + String.join(", ", row.choices));
        }
        return text;
    }

    /** Sets this row's limit to {@code n}, a whole number, or refuses it out of its range in every front end's words. */
    private void limit(AuditSettings.Builder b, BigDecimal n, String invalid) {
        boolean belowOne = n.compareTo(BigDecimal.ONE) < 0;
        if (belowOne || n.compareTo(BigDecimal.valueOf(max())) > 0) {
            throw new IllegalArgumentException(invalid + Limits.outOfRange(row.limit, belowOne));
        }
        b.limits(with(b.currentLimits(), row.limit, n.longValueExact()));
    }

    /** The value of {@code limit} in {@code l}. */
    private static long value(Limits l, Limit limit) {
        return switch (limit) {
            case BYTES -> l.bytes();
            case OPERATIONS -> l.operations();
            case ATTEMPTS -> l.attemptsPerOperation();
            case STRING -> l.stringLength();
            case DEPTH -> l.depth();
            case MEMORY -> throw new IllegalArgumentException("the heap is no setting");
        };
    }

    /** {@code l} with {@code limit} set to {@code v}, which is in its range. */
    private static Limits with(Limits l, Limit limit, long v) {
        return switch (limit) {
            case BYTES -> new Limits(v, l.operations(), l.attemptsPerOperation(), l.stringLength(), l.depth());
            case OPERATIONS -> new Limits(l.bytes(), v, l.attemptsPerOperation(), l.stringLength(), l.depth());
            case ATTEMPTS -> new Limits(l.bytes(), l.operations(), (int) v, l.stringLength(), l.depth());
            case STRING -> new Limits(l.bytes(), l.operations(), l.attemptsPerOperation(), (int) v, l.depth());
            case DEPTH -> new Limits(l.bytes(), l.operations(), l.attemptsPerOperation(), l.stringLength(), (int) v);
            case MEMORY -> throw new IllegalArgumentException("the heap is no setting");
        };
    }

    /** Whether the JSON number {@code v} is a whole one (1e3 is, 1.5 is not, nor is a double beyond any range). */
    private static boolean whole(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte
                || v instanceof BigInteger || v instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0
                || (v instanceof Double || v instanceof Float) && !Double.isInfinite(((Number) v).doubleValue())
                        && ((Number) v).doubleValue() == Math.rint(((Number) v).doubleValue());
    }

    /** How a row applies a checked value: an id, a name, a path. */
    private interface Apply {
        void to(AuditSettings.Builder b, Object value);
    }

    /** How a document row reads a document held in memory. */
    private interface Read {
        AuditSettings.Builder from(AuditSettings.Builder b, InputStream document, String name) throws RetryAuditException;
    }

    /** One row of the table, made by the factory of its kind. */
    private record Row(String id, Kind kind, String label, String description, List<String> choices,
            String defaultValue, Limit limit, Apply apply, Read read) {
        static Row choice(String id, String label, String text, List<String> ids,
                Function<AuditSettings, String> value, BiConsumer<AuditSettings.Builder, String> set) {
            String d = value.apply(AuditSettings.defaults());
            return new Row(id, Kind.CHOICE, label, text + ": " + String.join(", ", ids) + " (default: " + d + ").",
                    List.copyOf(ids), d, null, (b, v) -> set.accept(b, (String) v), null);
        }

        static Row count(Limit limit, String text) {
            long d = value(AuditSettings.defaults().limits(), limit);
            String shown = limit == Limit.BYTES && d % (1L << 30) == 0 ? (d >> 30) + " GiB" : shown(d);
            return new Row("limit-" + limit.id(), Kind.COUNT, "N", text + " (default: " + shown + ").", List.of(),
                    Long.toString(d), limit, null, null);
        }

        static Row file(String id, String text, BiConsumer<AuditSettings.Builder, Path> set,
                Read read) {
            return new Row(id, Kind.FILE, "FILE", text, List.of(), null, null, (b, v) -> set.accept(b, (Path) v), read);
        }

        static Row names(String id, String text, BiConsumer<AuditSettings.Builder, String> add) {
            return new Row(id, Kind.NAMES, "RULE", text, List.of(), null, null, (b, v) -> add.accept(b, (String) v), null);
        }

        /** A number as help writes it: 65,536. */
        static String shown(long n) {
            return String.format(Locale.ROOT, "%,d", n);
        }
    }
}
