package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.AnyValue;
import dev.retryaudit.input.foreign.ProtoNames;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;

/**
 * One OTLP/JSON attribute, {@code {"key": ..., "value": ...}}, read whole where only a few keys
 * matter (resource attributes, exception events); fields it does not know are skipped. Either part
 * is null when absent.
 */
record KeyValue(String key, AnyValue value) {
    /** The attribute at the cursor; null, and skipped, when it is not an object. */
    static KeyValue read(JsonCursor c) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            c.skip();
            return null;
        }
        String key = null;
        AnyValue value = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
            if (name.equals("key") && c.token() == JsonToken.VALUE_STRING) {
                key = c.optString();
            } else if (name.equals("value")) {
                value = AnyValue.read(c, 0);
            } else {
                c.skip();
            }
        }
        return new KeyValue(key, value);
    }
}
