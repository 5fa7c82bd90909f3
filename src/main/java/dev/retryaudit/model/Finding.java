package dev.retryaudit.model;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * One unsafe event found by one rule. {@code operation} is null for a finding about a whole run,
 * {@code attempt} null for one about a whole operation. The fingerprint depends only on the rule,
 * the source name, the operation and the attempt (for a finding about a whole run, also the run),
 * so it survives lines moving in the input.
 *
 * <p>A large audit holds hundreds of thousands of findings until they are written, so a finding
 * holds what its strings are made of rather than the strings: its fingerprint is computed when
 * first asked for, and a rule may give its message as a {@link LazyText} built when it is read.
 * Two findings are equal when every component is.
 */
public final class Finding implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final byte[] PREFIX = {'s', 'h', 'a', '2', '5', '6', ':'};
    private static final byte[] HEX_DIGITS = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    /** One digest a thread, reset by each {@code digest()}: fingerprints are computed for every finding. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    });

    private final String rule;
    private final Severity severity;
    private final String operation;
    private final Integer attempt;
    private final String tool;
    private final String run;
    /** A {@link String}, or a {@link LazyText} that builds it. */
    private final Serializable message;
    private final Evidence evidence;
    private final Location location;
    /** Null until first asked for when the finding computes its own. */
    private String fingerprint;

    private Finding(Builder b) {
        this.rule = Objects.requireNonNull(b.rule, "rule");
        this.severity = Objects.requireNonNull(b.severity, "severity");
        this.operation = b.operation;
        this.attempt = b.attempt;
        this.tool = b.tool;
        this.run = b.run;
        this.message = Objects.requireNonNull(b.message, "message");
        if (message instanceof String text && text.isBlank()) {
            throw new IllegalArgumentException("a finding needs a message");
        }
        this.evidence = Objects.requireNonNull(b.evidence, "evidence").frozen();
        this.location = Objects.requireNonNull(b.location, "location");
        this.fingerprint = b.fingerprint;
    }

    /** A builder with no field set; the rule, severity, message, evidence and location are required. */
    public static Builder builder() {
        return new Builder();
    }

    public String rule() {
        return rule;
    }

    public Severity severity() {
        return severity;
    }

    public String operation() {
        return operation;
    }

    public Integer attempt() {
        return attempt;
    }

    public String tool() {
        return tool;
    }

    public String run() {
        return run;
    }

    public String message() {
        return message instanceof LazyText m ? m.text() : (String) message;
    }

    public Evidence evidence() {
        return evidence;
    }

    public Location location() {
        return location;
    }

    /** {@code sha256:} and 64 hex digits; see {@link #fingerprint(String, String, String, Integer)}. */
    public String fingerprint() {
        String f = fingerprint;
        if (f == null) {
            // Computed from final fields into an immutable String: threads that race compute the same value.
            f = operation == null && run != null
                    ? fingerprint(rule, location.source(), operation, attempt, run)
                    : fingerprint(rule, location.source(), operation, attempt);
            fingerprint = f;
        }
        return f;
    }

    /** As {@link #fingerprint(String, String, String, Integer)}, plus the run: two runs reported in one source must differ. */
    public static String fingerprint(String rule, String source, String operation, Integer attempt, String run) {
        return fingerprint(new String[] {rule, source, operation, attempt == null ? null : attempt.toString(), run});
    }

    /** sha256 over rule, source name, operation and attempt, each length-prefixed so no two tuples collide. */
    public static String fingerprint(String rule, String source, String operation, Integer attempt) {
        return fingerprint(new String[] {rule, source, operation, attempt == null ? null : attempt.toString()});
    }

    /** The parts' bytes go to the digest in one update, and its hex digits are written by hand: JSON and SARIF fingerprint every finding. */
    private static String fingerprint(String[] parts) {
        int size = 0;
        for (String part : parts) {
            size += part == null ? 2 : 12 + 3 * part.length();
        }
        byte[] input = new byte[size];
        int at = 0;
        for (String part : parts) {
            if (part == null) {
                input[at++] = '-';
            } else {
                byte[] bytes = ascii(part) ? null : part.getBytes(StandardCharsets.UTF_8);
                int length = bytes == null ? part.length() : bytes.length;
                at = digits(length, input, at);
                input[at++] = ':';
                if (bytes == null) {
                    for (int i = 0; i < length; i++) {
                        input[at++] = (byte) part.charAt(i);
                    }
                } else {
                    System.arraycopy(bytes, 0, input, at, length);
                    at += length;
                }
            }
            input[at++] = 0;
        }
        MessageDigest md = SHA256.get();
        md.update(input, 0, at);
        byte[] digest = md.digest();
        byte[] text = new byte[7 + 2 * digest.length];
        System.arraycopy(PREFIX, 0, text, 0, PREFIX.length);
        for (int i = 0; i < digest.length; i++) {
            text[7 + 2 * i] = HEX_DIGITS[digest[i] >> 4 & 0xf];
            text[8 + 2 * i] = HEX_DIGITS[digest[i] & 0xf];
        }
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    private static boolean ascii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** Writes the decimal digits of {@code n} (not negative) at {@code at}; returns where they end. */
    private static int digits(int n, byte[] into, int at) {
        int end = at + 1;
        for (int rest = n / 10; rest != 0; rest /= 10) {
            end++;
        }
        for (int i = end - 1; i >= at; i--) {
            into[i] = (byte) ('0' + n % 10);
            n /= 10;
        }
        return end;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Finding f && rule.equals(f.rule) && severity == f.severity
                && Objects.equals(operation, f.operation) && Objects.equals(attempt, f.attempt)
                && Objects.equals(tool, f.tool) && Objects.equals(run, f.run) && message().equals(f.message())
                && evidence.equals(f.evidence) && location.equals(f.location) && fingerprint().equals(f.fingerprint());
    }

    @Override
    public int hashCode() {
        return Objects.hash(rule, severity, operation, attempt, tool, run, message(), evidence, location,
                fingerprint());
    }

    @Override
    public String toString() {
        return "Finding[rule=" + rule + ", severity=" + severity + ", operation=" + operation + ", attempt=" + attempt
                + ", tool=" + tool + ", run=" + run + ", message=" + message() + ", evidence=" + evidence
                + ", location=" + location + ", fingerprint=" + fingerprint() + "]";
    }

    /**
     * Builds findings: a rule's id, a severity, a message, evidence and a location are required; the operation
     * is null for a finding about a whole run, the attempt null for one about a whole operation. The
     * fingerprint is computed when first asked for unless one is given (a finding read back from a report).
     */
    public static final class Builder {
        private String rule;
        private Severity severity;
        private String operation;
        private Integer attempt;
        private String tool;
        private String run;
        private Serializable message;
        private Evidence evidence;
        private Location location;
        private String fingerprint;

        private Builder() {
        }

        /** The id of the rule that found it. */
        public Builder rule(String value) {
            rule = value;
            return this;
        }

        public Builder severity(Severity value) {
            severity = value;
            return this;
        }

        /** The operation's id; null for a finding about a whole run. */
        public Builder operation(String value) {
            operation = value;
            return this;
        }

        /** The attempt's id; null for a finding about a whole operation. */
        public Builder attempt(Integer value) {
            attempt = value;
            return this;
        }

        /** The tool of the operation (or of the run). */
        public Builder tool(String value) {
            tool = value;
            return this;
        }

        /** The run id, for a finding about a whole run. */
        public Builder run(String value) {
            run = value;
            return this;
        }

        /** The message, not blank. */
        public Builder message(String value) {
            message = value;
            return this;
        }

        /** The message as a text built each time it is read, for a finding that most operations of an input may get. */
        public Builder message(LazyText value) {
            message = value;
            return this;
        }

        public Builder evidence(Evidence value) {
            evidence = value;
            return this;
        }

        /** Where the finding stands in the input. */
        public Builder at(Location value) {
            location = value;
            return this;
        }

        /** The fingerprint, as a report gave it; null (the default) to compute it when first asked for. */
        public Builder fingerprint(String value) {
            fingerprint = value;
            return this;
        }

        /** The finding; a missing part or a blank message is refused. */
        public Finding build() {
            return new Finding(this);
        }
    }
}
