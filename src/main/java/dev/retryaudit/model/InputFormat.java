package dev.retryaudit.model;

import dev.retryaudit.text.Wire;
import java.util.List;

/** The input formats {@code --input-format} names; {@link #AUTO} chooses one from the content and the file name. */
public enum InputFormat {
    AUTO,
    OPERATIONS,
    SPANS,
    RETRY_TRACE,
    OTLP,
    HAR,
    ZIPKIN,
    JAEGER;

    /** The name used on the command line and in reports. */
    public String id() {
        return Wire.name(this, '-');
    }

    /** The format named {@code id}, or null. */
    public static InputFormat parse(String id) {
        return Wire.parse(InputFormat.class, id, '-');
    }

    public static List<String> ids() {
        return Wire.names(InputFormat.class, '-');
    }
}
