package dev.retryaudit.input.foreign;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Proto field names as the JSON names they stand for. */
class ProtoNamesTest {
    @Test
    void snakeCaseBecomesLowerCamelCase() {
        assertThat(ProtoNames.camel("resource_spans")).isEqualTo("resourceSpans");
        assertThat(ProtoNames.camel("instrumentation_library_spans")).isEqualTo("instrumentationLibrarySpans");
        assertThat(ProtoNames.camel("start_time_unix_nano")).isEqualTo("startTimeUnixNano");
        assertThat(ProtoNames.camel("parent_span_id")).isEqualTo("parentSpanId");
        assertThat(ProtoNames.camel("kvlist_value")).isEqualTo("kvlistValue");
    }

    @Test
    void aNameWithoutAnUnderscoreIsKeptAsItIs() {
        String name = "traceId";
        assertThat(ProtoNames.camel(name)).isSameAs(name);
        assertThat(ProtoNames.camel("spans")).isEqualTo("spans");
    }
}
