package dev.retryaudit.input;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Chooses an input format for {@code --input-format auto} from the file name's extension and the
 * top-level keys of the first JSON value in the first bytes of the input, without reading the rest.
 * A key that names a format decides ({@code operations}, {@code resourceSpans}, {@code log}, ...);
 * else the extension does ({@code .har}; {@code .jsonl} and {@code .ndjson} mean spans).
 */
public final class FormatDetector {
    /** How many bytes of an input detection may look at. */
    public static final int HEAD_BYTES = 256 * 1024;

    private FormatDetector() {
    }

    /** What detection saw: the format, or null when it cannot tell; and whether the head held only white space. */
    public record Guess(InputFormat format, boolean empty) {
    }

    /** Guesses the format of an input named {@code name} from its first {@code length} bytes. */
    public static Guess detect(String name, byte[] head, int length, StrictJson json) {
        String lower = name.toLowerCase(Locale.ROOT);
        boolean lines = lower.endsWith(".jsonl") || lower.endsWith(".ndjson");
        Set<String> keys = new LinkedHashSet<>();
        boolean several = false;
        boolean empty = false;
        // Jackson cannot tell a lone byte-order mark from broken UTF-8, so it is skipped here.
        boolean bomFirst = length >= 3 && (head[0] & 0xFF) == 0xEF && (head[1] & 0xFF) == 0xBB
                && (head[2] & 0xFF) == 0xBF;
        int bom = bomFirst ? 3 : 0;
        try (JsonParser p = json.parser(head, bom, length - bom)) {
            p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            JsonToken t = p.nextToken();
            empty = t == null;
            if (t == JsonToken.START_OBJECT) {
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    keys.add(key);
                    InputFormat decided = decisive(key, keys, false);
                    if (decided != null) {
                        return new Guess(lines && decided == InputFormat.OPERATIONS ? null : decided, false);
                    }
                    p.nextToken();
                    p.skipChildren();
                }
                long firstEnd = p.currentTokenLocation().getLineNr();
                several = p.nextToken() != null && p.currentTokenLocation().getLineNr() > firstEnd;
            }
        } catch (IOException e) {
            // A malformed or cut head: decide on the keys seen so far; the reader reports the error itself.
        }
        InputFormat byKeys = fromKeys(keys, lines || several);
        if (byKeys != null) {
            return new Guess(byKeys, false);
        }
        if (empty) {
            return new Guess(null, true);
        }
        if (lower.endsWith(".har")) {
            return new Guess(InputFormat.HAR, false);
        }
        return new Guess(lines ? InputFormat.SPANS : null, false);
    }

    private static InputFormat fromKeys(Set<String> keys, boolean lines) {
        for (String k : keys) {
            InputFormat f = decisive(k, keys, lines);
            if (f != null) {
                return f;
            }
        }
        if (keys.contains("attempts")) {
            return InputFormat.RETRY_TRACE;
        }
        if (keys.contains("version") && !lines) {
            return InputFormat.OPERATIONS;
        }
        return null;
    }

    private static InputFormat decisive(String key, Set<String> keys, boolean lines) {
        return switch (key) {
            case "operations" -> InputFormat.OPERATIONS;
            case "resourceSpans" -> InputFormat.OTLP;
            case "log" -> InputFormat.HAR;
            case "evidence", "format" -> InputFormat.RETRY_TRACE;
            case "attempts" -> keys.contains("run_id") ? InputFormat.RETRY_TRACE : null;
            case "run_id" -> keys.contains("attempts") ? InputFormat.RETRY_TRACE : null;
            case "attempt_id", "operation_id", "parent_run_id" -> InputFormat.SPANS;
            case "type", "idempotency_key", "commit_state" -> lines ? InputFormat.SPANS : null;
            default -> null;
        };
    }
}
