package dev.retryaudit.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.retryaudit.text.Escaping;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Checks each line the client sends, before the SDK's stdio transport reads it (which ends the session at the
 * first line it cannot map to a message, and leaves a request made before initialization waiting for ever).
 * A line that is not a JSON-RPC 2.0 message gets the error the specification gives: -32700 (parse error, id
 * null) for what is not JSON, -32600 (invalid request, with the id when one can be read) for JSON that is no
 * message, a batch among them (MCP 2025-06-18 removed batching, and the SDK reads none under any version). A
 * request other than {@code initialize} and {@code ping} before {@code notifications/initialized} gets -32002
 * (server not initialized), and a {@code ping} then is answered here, as the specification allows. What cannot be
 * answered (a malformed response, an early {@code notifications/initialized}) is one line on stderr. Only valid
 * messages reach the SDK, with no carriage return left in them, since the transport would split the line there.
 */
final class MessageCheck {
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int NOT_INITIALIZED = -32002;

    /** Where the session is in its lifecycle, as far as the lines seen so far tell. */
    private enum Phase { NEW, INITIALIZING, READY }

    private final JsonFactory json;
    private final int maxDepth;
    private final int max;
    private final Outbox out;
    private final Consumer<String> note;
    private Phase phase = Phase.NEW;
    private long handedOn;

    /**
     * Checks lines with {@code json}, the SDK's own JSON factory (so what passes here parses there), replies on
     * {@code out}, and tells {@code note} what cannot be replied to; {@code max} is the longest line, in bytes.
     */
    MessageCheck(JsonFactory json, int max, Outbox out, Consumer<String> note) {
        this.json = json;
        this.maxDepth = json.streamReadConstraints().getMaxNestingDepth();
        this.max = max;
        this.out = out;
        this.note = note;
    }

    /** How many requests were handed on to the SDK, each of which it answers. */
    long handedOn() {
        return handedOn;
    }

    /**
     * The bytes the SDK should read for the line {@code line[0..length)} (without its newline), ending in a
     * newline; or null when the line was answered or reported here, or holds nothing but white space.
     */
    byte[] check(byte[] line, int length) throws IOException {
        int start = 0;
        while (start < length && isSpace(line[start])) {
            start++;
        }
        if (start == length) {
            return null;
        }
        if (length >= 3 && (line[0] & 0xff) == 0xEF && (line[1] & 0xff) == 0xBB && (line[2] & 0xff) == 0xBF) {
            reply(null, PARSE_ERROR, "Parse error: the line starts with a byte order mark (U+FEFF), which JSON sent "
                    + "over a network must not carry");
            return null;
        }
        Message m;
        try {
            m = read(line, length);
        } catch (StreamConstraintsException e) {
            boolean deep = String.valueOf(e.getMessage()).contains("nesting depth");
            reply(topLevelId(line, length), INVALID_REQUEST, "Invalid Request: " + (deep
                    ? "the message nests deeper than " + maxDepth + " levels, the most this server reads"
                    : "the message exceeds a bound of this server's JSON reader: " + firstClause(e.getOriginalMessage())));
            return null;
        } catch (JsonProcessingException e) {
            reply(null, PARSE_ERROR, "Parse error: " + firstClause(e.getOriginalMessage()) + " (column "
                    + e.getLocation().getColumnNr() + ")");
            return null;
        }
        if (m.problem() != null) {
            if (m.kind() == Kind.RESPONSE) {
                note.accept("ignored a response that is not valid JSON-RPC 2.0: " + m.problem());
            } else {
                reply(m.id(), INVALID_REQUEST, "Invalid Request: " + m.problem());
            }
            return null;
        }
        if (!admitted(m)) {
            return null;
        }
        byte[] pass = Arrays.copyOf(line, length + 1);
        for (int i = 0; i < length; i++) {
            if (pass[i] == '\r') {
                // Only white space between tokens can be a raw CR in valid JSON, and the transport ends a line there.
                pass[i] = ' ';
            }
        }
        pass[length] = '\n';
        return pass;
    }

    /** Answers a line of {@code size} bytes, longer than one message may be, of which {@code prefix} was kept. */
    void tooLong(byte[] prefix, int kept, long size) throws IOException {
        String why = "a message of " + size + " bytes, more than the " + max + " one message may hold; give a large "
                + "trace to audit_trace as 'path'";
        note.accept("dropped " + why);
        reply(topLevelId(prefix, kept), INVALID_REQUEST, "Invalid Request: " + why);
    }

    /** Whether {@code m} goes on to the SDK, as the lifecycle allows; answers it here when not. */
    private boolean admitted(Message m) throws IOException {
        if (m.kind() == Kind.NOTIFICATION && m.method().equals("notifications/initialized")) {
            if (phase == Phase.NEW) {
                note.accept("ignored notifications/initialized before initialize");
                return false;
            }
            phase = Phase.READY;
        }
        if (m.kind() != Kind.REQUEST) {
            return true;
        }
        if (phase != Phase.READY && m.method().equals("ping")) {
            // The SDK's handlers wait for initialization; ping may come before it.
            reply(m.id(), 0, null);
            return false;
        }
        if (m.method().equals("initialize")) {
            if (phase == Phase.NEW) {
                phase = Phase.INITIALIZING;
            }
        } else if (phase != Phase.READY) {
            reply(m.id(), NOT_INITIALIZED, "Server not initialized: " + Escaping.shortened(m.method(), 80)
                    + (phase == Phase.NEW ? " before initialize" : " before notifications/initialized")
                    + "; send initialize, then notifications/initialized once it is answered, then requests");
            return false;
        }
        handedOn++;
        return true;
    }

    /** What a line holds, by the members the SDK tells messages apart by. */
    private enum Kind { REQUEST, NOTIFICATION, RESPONSE, OTHER }

    /** One line read: its kind, id (a String or Long; null when absent or unusable) and method, or its problem. */
    private record Message(Kind kind, Object id, String method, String problem) {
    }

    private Message read(byte[] line, int length) throws IOException {
        try (JsonParser p = json.createParser(line, 0, length)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_ARRAY) {
                boolean empty = p.nextToken() == JsonToken.END_ARRAY;
                if (!empty) {
                    // Read to the end of the batch, so that broken JSON in it is a parse error.
                    do {
                        p.skipChildren();
                    } while (p.nextToken() != JsonToken.END_ARRAY);
                }
                end(p);
                return new Message(Kind.OTHER, null, null, empty ? "an empty array is no message"
                        : "a batch: this server takes one message a line (MCP 2025-06-18 removed JSON-RPC batching)");
            }
            if (t != JsonToken.START_OBJECT) {
                end(p);
                return new Message(Kind.OTHER, null, null, "a message is a JSON object, not " + describe(t));
            }
            Members m = new Members();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                m.read(p.currentName(), p);
            }
            end(p);
            return m.message();
        }
    }

    /** The members of a message's object that tell what it is. */
    private static final class Members {
        boolean hasVersion;
        String version;
        boolean hasId;
        Object id;
        boolean hasMethod;
        String method;
        boolean badParams;
        boolean hasResult;
        boolean hasError;
        String badError;

        void read(String name, JsonParser p) throws IOException {
            JsonToken v = p.nextToken();
            switch (name) {
                case "jsonrpc" -> {
                    hasVersion = true;
                    version = v == JsonToken.VALUE_STRING ? p.getText() : null;
                }
                case "id" -> {
                    hasId = true;
                    id = v == JsonToken.VALUE_STRING ? p.getText()
                            : v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER
                                    ? (Object) p.getLongValue() : null;
                }
                case "method" -> {
                    hasMethod = true;
                    method = v == JsonToken.VALUE_STRING ? p.getText() : null;
                }
                case "params" -> badParams = v != JsonToken.START_OBJECT && v != JsonToken.START_ARRAY;
                case "result" -> hasResult = true;
                case "error" -> {
                    hasError = true;
                    badError = errorProblem(v, p);
                    return;
                }
                default -> {
                }
            }
            p.skipChildren();
        }

        Message message() {
            String problem = !hasVersion ? "no \"jsonrpc\": \"2.0\" member"
                    : !"2.0".equals(version) ? "\"jsonrpc\" must be \"2.0\""
                    : hasId && id == null ? "\"id\" must be a string or an integer (MCP allows no null id)"
                    : null;
            if (hasMethod) {
                if (problem == null) {
                    problem = method == null ? "\"method\" must be a string"
                            : hasResult || hasError ? "a request carries no \"result\" or \"error\""
                            : badParams ? "\"params\" must be an object" : null;
                }
                return new Message(hasId ? Kind.REQUEST : Kind.NOTIFICATION, id, method, problem);
            }
            if (hasResult || hasError) {
                if (problem == null) {
                    problem = !hasId ? "a response without \"id\""
                            : hasResult && hasError ? "a response with both \"result\" and \"error\"" : badError;
                }
                return new Message(Kind.RESPONSE, id, null, problem);
            }
            return new Message(Kind.OTHER, id, null, problem != null ? problem
                    : "neither a request (\"method\" and \"id\"), a notification (\"method\") nor a response "
                            + "(\"result\" or \"error\")");
        }

        /** Why a response's {@code error} is not an object with an integer code and a string message, or null. */
        private static String errorProblem(JsonToken v, JsonParser p) throws IOException {
            if (v != JsonToken.START_OBJECT) {
                p.skipChildren();
                return "\"error\" must be an object";
            }
            boolean code = false;
            boolean message = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals("code")) {
                    code = t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT;
                } else if (name.equals("message")) {
                    message = t == JsonToken.VALUE_STRING;
                }
                p.skipChildren();
            }
            return code && message ? null : "\"error\" must have an integer \"code\" and a string \"message\"";
        }
    }

    /** Fails unless the value just read is all the line holds. */
    private static void end(JsonParser p) throws IOException {
        p.skipChildren();
        JsonToken extra = p.nextToken();
        if (extra != null) {
            throw new com.fasterxml.jackson.core.JsonParseException(p, "more than one JSON value on the line");
        }
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case VALUE_NULL -> "null";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            default -> String.valueOf(t);
        };
    }

    /**
     * The {@code id} member of the top-level object of a line that cannot be read whole (nested too deep, or cut at
     * the size bound), found by a scan that only counts brackets outside strings; null when there is none to use.
     */
    Object topLevelId(byte[] b, int n) {
        int i = 0;
        while (i < n && isSpace(b[i])) {
            i++;
        }
        if (i == n || b[i] != '{') {
            return null;
        }
        Object id = null;
        int depth = 0;
        for (; i < n; i++) {
            byte c = b[i];
            if (c == '"') {
                int end = i + 1;
                while (end < n && b[end] != '"') {
                    end += b[end] == '\\' ? 2 : 1;
                }
                if (end >= n) {
                    return id;
                }
                int after = end + 1;
                while (after < n && isSpace(b[after])) {
                    after++;
                }
                if (depth == 1 && after < n && b[after] == ':' && end - i == 3 && b[i + 1] == 'i' && b[i + 2] == 'd') {
                    id = scalarId(b, after + 1, n);
                }
                i = end;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return id;
    }

    /** The string or integer value that starts at {@code from}, or null. */
    private Object scalarId(byte[] b, int from, int n) {
        int start = from;
        while (start < n && isSpace(b[start])) {
            start++;
        }
        int end = start;
        if (end < n && b[end] == '"') {
            end++;
            while (end < n && b[end] != '"') {
                end += b[end] == '\\' ? 2 : 1;
            }
            end++;
        } else {
            while (end < n && (b[end] >= '0' && b[end] <= '9' || "-+.eE".indexOf(b[end]) >= 0)) {
                end++;
            }
        }
        // Parsed alone, so that a number is not taken for a root value the next byte must be a space after.
        try (JsonParser p = json.createParser(b, start, Math.min(end, n) - start)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.VALUE_STRING) {
                return p.getText();
            }
            if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                return p.getLongValue();
            }
        } catch (IOException e) {
            // Not a usable id.
        }
        return null;
    }

    /** Writes a reply to {@code id}: an error with {@code code} and {@code message}, or an empty result (code 0). */
    private void reply(Object id, int code, String message) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (JsonGenerator g = json.createGenerator(b)) {
            g.writeStartObject();
            g.writeStringField("jsonrpc", "2.0");
            g.writeFieldName("id");
            if (id instanceof String s) {
                g.writeString(s);
            } else if (id instanceof Long l) {
                g.writeNumber(l);
            } else {
                g.writeNull();
            }
            if (code == 0) {
                g.writeObjectFieldStart("result");
            } else {
                g.writeObjectFieldStart("error");
                g.writeNumberField("code", code);
                g.writeStringField("message", message);
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        out.reply(b.toByteArray());
    }

    /** Jackson's message up to its first line or source excerpt: what went wrong, not where it reads from. */
    private static String firstClause(String message) {
        String m = String.valueOf(message);
        int cut = m.indexOf('\n');
        m = cut < 0 ? m : m.substring(0, cut);
        int from = m.indexOf(", from `");
        return Escaping.shortened(from < 0 ? m : m.substring(0, from), 200);
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }
}
