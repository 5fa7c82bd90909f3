package dev.retryaudit.model;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One unsafe event found by one rule. {@code operation} is null for a finding about a whole run,
 * {@code attempt} null for one about a whole operation. The fingerprint depends only on the rule,
 * the source name, the operation and the attempt (for a finding about a whole run, also the run),
 * so it survives lines moving in the input.
 */
public record Finding(
        String rule,
        Severity severity,
        String operation,
        Integer attempt,
        String tool,
        String run,
        String message,
        Evidence evidence,
        Location location,
        String fingerprint) implements Serializable {
    private static final HexFormat HEX = HexFormat.of();
    /** One digest a thread, reset by each {@code digest()}: fingerprints are computed for every finding. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    });

    public Finding {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
        evidence = Objects.requireNonNull(evidence, "evidence").frozen();
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(fingerprint, "fingerprint");
        if (message.isBlank()) {
            throw new IllegalArgumentException("a finding needs a message");
        }
    }

    /** Builds a finding and computes its fingerprint. */
    public static Finding of(String rule, Severity severity, String operation, Integer attempt, String tool,
            String run, String message, Evidence evidence, Location location) {
        return new Finding(rule, severity, operation, attempt, tool, run, message, evidence, location,
                operation == null && run != null
                        ? fingerprint(rule, location.source(), operation, attempt, run)
                        : fingerprint(rule, location.source(), operation, attempt));
    }

    /** As {@link #fingerprint(String, String, String, Integer)}, plus the run: two runs reported in one source must differ. */
    public static String fingerprint(String rule, String source, String operation, Integer attempt, String run) {
        return fingerprint(new String[] {rule, source, operation, attempt == null ? null : attempt.toString(), run});
    }

    /** sha256 over rule, source name, operation and attempt, each length-prefixed so no two tuples collide. */
    public static String fingerprint(String rule, String source, String operation, Integer attempt) {
        return fingerprint(new String[] {rule, source, operation, attempt == null ? null : attempt.toString()});
    }

    private static String fingerprint(String[] parts) {
        MessageDigest md = SHA256.get();
        for (String part : parts) {
            if (part == null) {
                md.update((byte) '-');
            } else {
                byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                md.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
                md.update((byte) ':');
                md.update(bytes);
            }
            md.update((byte) 0);
        }
        return "sha256:" + HEX.formatHex(md.digest());
    }
}
