package dev.retryaudit.input.foreign;

import dev.retryaudit.json.JsonCursor;
import java.io.IOException;

/**
 * The field names of protobuf's JSON mapping as one spelling: a parser accepts a field under its
 * lowerCamelCase JSON name ({@code resourceSpans}, {@code startTimeUnixNano}) and under its original
 * proto name ({@code resource_spans}, {@code start_time_unix_nano}), which exporters that print with
 * {@code preserving_proto_field_name} write; OTLP/JSON is read under the first.
 */
public final class ProtoNames {
    private ProtoNames() {
    }

    /** The name of the field at the cursor, in lowerCamelCase. */
    public static String field(JsonCursor c) throws IOException {
        return camel(c.parser().currentName());
    }

    /** {@code name} in lowerCamelCase: each {@code _} dropped and the letter after it upper-cased; a name without one as it is. */
    public static String camel(String name) {
        int under = name.indexOf('_');
        if (under < 0) {
            return name;
        }
        StringBuilder b = new StringBuilder(name.length()).append(name, 0, under);
        boolean upper = false;
        for (int i = under; i < name.length(); i++) {
            char ch = name.charAt(i);
            if (ch == '_') {
                upper = true;
            } else {
                b.append(upper && ch >= 'a' && ch <= 'z' ? (char) (ch - 'a' + 'A') : ch);
                upper = false;
            }
        }
        return b.toString();
    }
}
