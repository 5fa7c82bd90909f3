package dev.retryaudit.rules.shared;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The value of a tool's key argument in a tool call's arguments ({@code Attempt#toolArguments()}, canonical
 * JSON): the idempotency key the call carried, when a tools file names the argument that holds it
 * ({@code key_argument}). A string is the key as written, any other value its canonical JSON text; an
 * absent, null or empty argument is no key, and so are arguments kept only as a digest or that are no
 * JSON object.
 */
final class KeyArgument {
    private static final JsonFactory JSON = new JsonFactory();

    private KeyArgument() {
    }

    /** The key argument {@code argument}'s value in {@code arguments}, or null. */
    static String value(String arguments, String argument) {
        if (arguments == null || argument == null || !arguments.startsWith("{")) {
            return null;
        }
        try (JsonParser p = JSON.createParser(arguments)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                boolean wanted = argument.equals(p.currentName());
                JsonToken t = p.nextToken();
                if (!wanted) {
                    p.skipChildren();
                    continue;
                }
                if (t == JsonToken.VALUE_NULL) {
                    return null;
                }
                if (t.isScalarValue()) {
                    String text = p.getText();
                    return text.isEmpty() ? null : text;
                }
                int from = (int) p.currentTokenLocation().getCharOffset();
                p.skipChildren();
                return arguments.substring(from, (int) p.currentLocation().getCharOffset());
            }
        } catch (IOException notJson) {
            return null;
        }
        return null;
    }
}
