package dev.retryaudit.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.model.Limit;
import dev.retryaudit.json.Json;
import java.io.IOException;
import java.io.OutputStream;

/** The JSON object a script reads on stdout when the input was rejected: {@code {"version": 1, "error": {...}}}. */
final class ErrorReport {
    private ErrorReport() {
    }

    /** Writes the error; {@code line}/{@code column} of 0, a null path and a null limit print as null. */
    public static void write(OutputStream out, int code, String message, String source, long line, long column,
            String path, Limit limit) throws IOException {
        try (JsonGenerator g = Json.generator(out)) {
            g.writeStartObject();
            g.writeNumberField("version", 1);
            g.writeObjectFieldStart("error");
            g.writeNumberField("code", code);
            g.writeStringField("message", message);
            g.writeStringField("source", source);
            g.writeFieldName("line");
            Json.value(g, line > 0 ? line : null);
            g.writeFieldName("column");
            Json.value(g, column > 0 ? column : null);
            g.writeStringField("path", path);
            g.writeStringField("limit", limit == null ? null : limit.id());
            g.writeEndObject();
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }
}
