package dev.retryaudit.input.foreign;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A tool call's arguments in the one form two calls are compared by: JSON parsed, object keys
 * sorted, numbers normalised ({@code 1200}, {@code 1200.0} and {@code 1.2e3} are one number), strings
 * as JSON strings; text that is no JSON is compared stripped of outer white space. Long forms are kept
 * as their SHA-256, so a span holds at most 512 characters of them (enough for a key argument to be
 * read from them, {@code Attempt#toolArguments()}).
 */
final class ToolArguments {
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build()).build();
    private static final int KEPT = 512;
    private static final int MAX_READ = 1 << 20;

    private ToolArguments() {
    }

    /** The canonical form of {@code recorded}, or null when nothing was recorded. */
    static String canonical(String recorded) {
        if (recorded == null) {
            return null;
        }
        String text = recorded.strip();
        if (text.isEmpty()) {
            return null;
        }
        String form = text;
        if (text.length() <= MAX_READ && (text.charAt(0) == '{' || text.charAt(0) == '[')) {
            try (JsonParser p = JSON.createParser(text)) {
                StringBuilder out = new StringBuilder(text.length());
                if (p.nextToken() != null) {
                    write(p, out);
                    if (p.nextToken() == null) {
                        form = out.toString();
                    }
                }
            } catch (IOException | RuntimeException notJson) {
                form = text;
            }
        }
        return form.length() <= KEPT ? form : "sha256:" + sha256(form);
    }

    /** Writes the value at the parser's current token in canonical form. */
    private static void write(JsonParser p, StringBuilder out) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, String> members = new TreeMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    StringBuilder value = new StringBuilder();
                    write(p, value);
                    members.put(name, value.toString());
                }
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, String> m : members.entrySet()) {
                    out.append(first ? "" : ",");
                    quote(m.getKey(), out);
                    out.append(':').append(m.getValue());
                    first = false;
                }
                out.append('}');
            }
            case START_ARRAY -> {
                List<String> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    StringBuilder value = new StringBuilder();
                    write(p, value);
                    items.add(value.toString());
                }
                out.append('[').append(String.join(",", items)).append(']');
            }
            case VALUE_STRING -> quote(p.getText(), out);
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> out.append(number(p.getText()));
            case VALUE_TRUE, VALUE_FALSE, VALUE_NULL -> out.append(p.getText());
            default -> throw new IOException("unexpected " + t);
        }
    }

    private static String number(String text) {
        BigDecimal d = new BigDecimal(text).stripTrailingZeros();
        return d.signum() == 0 ? "0" : d.toPlainString().length() <= 40 ? d.toPlainString() : d.toString();
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
