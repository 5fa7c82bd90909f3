package dev.retryaudit.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.values.RawJson;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/** The one JSON output setup of the reports: UTF-8, two-space indent, {@code "key": value}, LF line ends. */
public final class Json {
    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private Json() {
    }

    /** A pretty-printing generator that leaves {@code out} open when closed. */
    public static JsonGenerator generator(OutputStream out) throws IOException {
        JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        DefaultIndenter indent = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator(""));
        pp.indentObjectsWith(indent);
        pp.indentArraysWith(indent);
        g.setPrettyPrinter(pp);
        return g;
    }

    /** Writes a finding's evidence as an object, its facts in the order they were added. */
    public static void evidence(JsonGenerator g, Evidence evidence) throws IOException {
        g.writeStartObject();
        for (int i = 0; i < evidence.size(); i++) {
            g.writeFieldName(evidence.key(i));
            value(g, evidence.value(i));
        }
        g.writeEndObject();
    }

    /** Writes an evidence value: scalars, lists, maps and raw JSON kept as it came. */
    public static void value(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof Integer i) {
            g.writeNumber(i);
        } else if (v instanceof Long l) {
            g.writeNumber(l);
        } else if (v instanceof Double d) {
            g.writeNumber(d);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof RawJson r) {
            g.writeRawValue(r.json());
        } else if (v instanceof List<?> list) {
            g.writeStartArray();
            for (Object o : list) {
                value(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                value(g, e.getValue());
            }
            g.writeEndObject();
        } else {
            throw new IllegalArgumentException("cannot write " + v.getClass());
        }
    }
}
