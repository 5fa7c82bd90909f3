package dev.retryaudit.input.foreign.zipkin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Outcome;
import org.junit.jupiter.api.Test;

/** Zipkin annotations read as hints of how a request failed. */
class ZipkinAnnotationsTest {
    @Test
    void anOpenTelemetryExceptionAnnotationNamesItsTypeOrMessage() {
        assertThat(ZipkinAnnotations.named("\"exception\":{\"exception.message\":\"timeout\","
                + "\"exception.type\":\"java.net.SocketTimeoutException\"}")).isEqualTo(Outcome.TIMEOUT);
        assertThat(ZipkinAnnotations.named("\"exception\":{\"exception.type\":\"java.net.ConnectException\"}"))
                .isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void aCauseInTheUnescapedStacktraceIsRead() {
        String value = "\"exception\":{\"exception.stacktrace\":\"org.springframework.web.reactive.function.client"
                + ".WebClientRequestException\n\tat a.B.c(B.java:1)\nCaused by: io.netty.handler.timeout"
                + ".ReadTimeoutException: null\n\",\"exception.type\":\"org.springframework.web.reactive.function"
                + ".client.WebClientRequestException\"}";
        assertThat(ZipkinAnnotations.named(value)).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void onlyAnAnnotationThatSaysItIsAnErrorIsReadOtherwise() {
        assertThat(ZipkinAnnotations.named("error: read timed out")).isEqualTo(Outcome.TIMEOUT);
        assertThat(ZipkinAnnotations.named("Connection established")).isNull();
        assertThat(ZipkinAnnotations.named("wr")).isNull();
        assertThat(ZipkinAnnotations.named("\"message\":{\"message.type\":\"SENT\"}")).isNull();
    }
}
