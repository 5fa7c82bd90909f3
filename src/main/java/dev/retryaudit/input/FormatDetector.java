package dev.retryaudit.input;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.otlp.OtlpLogLines;
import dev.retryaudit.input.foreign.otlp.OtlpProtobuf;
import dev.retryaudit.input.foreign.retrytrace.CurlDiagnostic;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.model.InputFormat;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Chooses an input format for {@code --input-format auto} from the file name's extension and the
 * top-level keys of the first JSON value in the first bytes of the input, without reading the rest.
 * A key that names a format decides ({@code operations}, {@code resourceSpans}, {@code log}, ...);
 * a top-level array is judged by the keys of its first element (Zipkin spans, Jaeger traces or
 * spans); a wrapper ({@code result}, {@code data}) by the keys inside it; a log whose lines carry
 * OTLP exports after a prefix by the first such export; else the extension decides ({@code .har};
 * {@code .jsonl} and {@code .ndjson} mean spans). Bytes that begin as the collector file exporter's
 * framed protobuf are OTLP.
 */
public final class FormatDetector {
    /** How many bytes of an input detection may look at. */
    public static final int HEAD_BYTES = 256 * 1024;

    private FormatDetector() {
    }

    /** What detection saw: the format, or null when it cannot tell; and whether the head held only white space. */
    public record Guess(InputFormat format, boolean empty) {
    }

    /** What the first JSON value showed: its keys (of its first element, for an array), and how it was seen. */
    private static final class Seen {
        final Set<String> keys = new LinkedHashSet<>();
        InputFormat decided;
        boolean array;
        boolean several;
        boolean empty;
        boolean unparsed;
    }

    /** Guesses the format of an input named {@code name} from its first {@code length} bytes. */
    public static Guess detect(String name, byte[] head, int length, StrictJson json) {
        if (OtlpProtobuf.isFramed(head, 0, length)) {
            return new Guess(InputFormat.OTLP, false);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        boolean lines = lower.endsWith(".jsonl") || lower.endsWith(".ndjson");
        // Jackson cannot tell a lone byte-order mark from broken UTF-8, so it is skipped here.
        boolean bomFirst = length >= 3 && (head[0] & 0xFF) == 0xEF && (head[1] & 0xFF) == 0xBB
                && (head[2] & 0xFF) == 0xBF;
        int bom = bomFirst ? 3 : 0;
        Seen seen = look(head, bom, length - bom, json, lines);
        if (seen.decided == null && seen.unparsed) {
            int start = OtlpLogLines.firstExport(head, bom, length);
            if (start >= 0) {
                Seen export = look(head, start, length - start, json, true);
                if (export.decided == InputFormat.OTLP || fromKeys(export.keys, true) == InputFormat.OTLP) {
                    return new Guess(InputFormat.OTLP, false);
                }
            }
        }
        if (seen.decided != null) {
            return new Guess(lines && seen.decided == InputFormat.OPERATIONS ? null : seen.decided, false);
        }
        InputFormat byKeys = seen.array ? fromElementKeys(seen.keys) : fromKeys(seen.keys, lines || seen.several);
        if (byKeys != null) {
            return new Guess(byKeys, false);
        }
        if (seen.empty) {
            return new Guess(null, true);
        }
        if (lower.endsWith(".har")) {
            return new Guess(InputFormat.HAR, false);
        }
        return new Guess(lines ? InputFormat.SPANS : null, false);
    }

    private static Seen look(byte[] head, int offset, int length, StrictJson json, boolean lines) {
        Seen seen = new Seen();
        try (JsonParser p = json.parser(head, offset, length)) {
            p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            JsonToken t = p.nextToken();
            seen.empty = t == null;
            if (t == JsonToken.START_ARRAY) {
                seen.array = true;
                if (p.nextToken() == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        seen.keys.add(p.currentName());
                        p.nextToken();
                        p.skipChildren();
                    }
                }
            } else if (t == JsonToken.START_OBJECT) {
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    seen.keys.add(key);
                    p.nextToken();
                    InputFormat decided = key.equals("result") || key.equals("data") ? inside(key, p)
                            : key.equals("kind") && p.currentToken() == JsonToken.VALUE_STRING
                                    && CurlDiagnostic.KIND.equals(p.getText()) ? InputFormat.RETRY_TRACE
                            : decisive(key, seen.keys, false);
                    if (decided != null) {
                        seen.decided = decided;
                        return seen;
                    }
                    p.skipChildren();
                }
                long firstEnd = p.currentTokenLocation().getLineNr();
                seen.several = p.nextToken() != null && p.currentTokenLocation().getLineNr() > firstEnd;
            }
        } catch (IOException e) {
            // A malformed or cut head: decide on the keys seen so far; the reader reports the error itself.
            seen.unparsed = seen.keys.isEmpty();
        }
        return seen;
    }

    /**
     * The format that a wrapper's value shows: {@code result} holding an OTLP export (the Jaeger query
     * API v3), {@code data} holding Jaeger traces (query API v1). Where it shows none, the parser is
     * left at the value's end, so that the keys after it count.
     */
    private static InputFormat inside(String key, JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        boolean array = key.equals("data") && t == JsonToken.START_ARRAY;
        if (array) {
            t = p.nextToken();
        }
        if (t == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String inner = p.currentName();
                // A key that shows the format decides at once: the rest of the value may run past the head.
                if (key.equals("result") && (inner.equals("resourceSpans") || inner.equals("resource_spans"))) {
                    return InputFormat.OTLP;
                }
                if (key.equals("data") && (inner.equals("traceID") || inner.equals("spans") || inner.equals("processes"))) {
                    return InputFormat.JAEGER;
                }
                p.nextToken();
                p.skipChildren();
            }
        } else if (t != JsonToken.END_ARRAY) {
            p.skipChildren();
        }
        // Nothing found: the rest of the array is passed over for the keys after it.
        while (array && t != JsonToken.END_ARRAY && t != null) {
            t = p.nextToken();
            p.skipChildren();
        }
        return null;
    }

    /** The format of a top-level array of objects with these keys: Zipkin v2 spans, or Jaeger traces or spans. */
    private static InputFormat fromElementKeys(Set<String> keys) {
        if (keys.contains("traceID")) {
            return InputFormat.JAEGER;
        }
        return keys.contains("traceId") && (keys.contains("id") || keys.contains("localEndpoint"))
                ? InputFormat.ZIPKIN : null;
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
            case "resourceSpans", "scopeSpans", "instrumentationLibrarySpans", "resource_spans", "scope_spans",
                    "instrumentation_library_spans" -> InputFormat.OTLP;
            case "log" -> InputFormat.HAR;
            case "evidence", "format" -> InputFormat.RETRY_TRACE;
            case "attempts" -> keys.contains("run_id") ? InputFormat.RETRY_TRACE : null;
            case "run_id" -> keys.contains("attempts") ? InputFormat.RETRY_TRACE : null;
            case "attempt_id", "operation_id", "parent_run_id" -> InputFormat.SPANS;
            case "localEndpoint", "remoteEndpoint" -> InputFormat.ZIPKIN;
            case "id", "traceId" -> keys.contains("traceId") && keys.contains("id") ? InputFormat.ZIPKIN : null;
            case "traceID", "processes" -> InputFormat.JAEGER;
            case "type", "idempotency_key", "commit_state" -> lines ? InputFormat.SPANS : null;
            default -> null;
        };
    }
}
