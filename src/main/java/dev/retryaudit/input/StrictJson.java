package dev.retryaudit.input;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
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
                        .maxStringLength(limits.stringLength())
                        .maxNameLength(limits.stringLength())
                        .maxNestingDepth(limits.depth())
                        .build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                .build();
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
