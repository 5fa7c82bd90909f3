package dev.retryaudit.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.retryaudit.model.Limits;
import java.io.IOException;
import java.io.InputStream;

/**
 * The one strict Jackson configuration for every input we read: duplicate keys fail, the named
 * limits are Jackson's own constraints, no comments or other leniencies, the input never echoed
 * into locations. Trailing content and value rules are checked by the readers.
 */
public final class StrictJson {
    private final JsonFactory factory;

    public StrictJson(Limits limits) {
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxStringLength(utf16Units(limits.stringLength()))
                        .maxNameLength(limits.nameLength())
                        .maxNestingDepth(limits.depth())
                        .build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                .build();
    }

    /**
     * Jackson counts UTF-16 units, two for a character beyond the Basic Multilingual Plane (an emoji):
     * it stops a string at twice the limit, and {@link JsonCursor} counts the characters exactly.
     */
    private static int utf16Units(int characters) {
        return (int) Math.min(Integer.MAX_VALUE, 2L * characters);
    }

    /** A parser over UTF-8 bytes (a leading BOM is skipped). */
    public JsonParser parser(InputStream in) throws IOException {
        return factory.createParser(in);
    }

    /** A parser over {@code length} bytes from {@code offset}. */
    public JsonParser parser(byte[] bytes, int offset, int length) throws IOException {
        return factory.createParser(bytes, offset, length);
    }
}
