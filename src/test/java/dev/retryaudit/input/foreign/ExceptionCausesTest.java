package dev.retryaudit.input.foreign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Outcome;
import org.junit.jupiter.api.Test;

/** The exception lines of a stack trace read for a timeout or connection failure, and its frames passed over. */
class ExceptionCausesTest {
    @Test
    void aReactorNettyReadTimeoutWrappedByWebClientIsATimeout() {
        String trace = "org.springframework.web.reactive.function.client.WebClientRequestException\n"
                + "\tat org.springframework.web.reactive.function.client.ExchangeFunctions.lambda$wrapException$9(ExchangeFunctions.java:137)\n"
                + "\tSuppressed: reactor.core.publisher.FluxOnAssembly$OnAssemblyException: \n"
                + "Error has been observed at the following site(s):\n"
                + "\t*__checkpoint \u21e2 Request to POST http://127.0.0.1:8080/connect [DefaultWebClient]\n"
                + "Original Stack Trace:\n"
                + "Caused by: io.netty.handler.timeout.ReadTimeoutException: null\n";
        assertThat(ExceptionCauses.outcome(trace)).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void aConnectionRefusedCauseIsAConnectionError() {
        String trace = "org.springframework.web.client.ResourceAccessException: I/O error on POST request\n"
                + "\tat org.springframework.web.client.RestTemplate.doExecute(RestTemplate.java:915)\n"
                + "Caused by: java.net.ConnectException: Connection refused\n"
                + "\tat java.base/sun.nio.ch.Net.pollConnect(Native Method)\n";
        assertThat(ExceptionCauses.outcome(trace)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void framesNameNoFailure() {
        String trace = "java.io.IOException: unexpected end of stream\n"
                + "\tat okhttp3.internal.connection.ConnectInterceptor.intercept(ConnectInterceptor.kt:34)\n"
                + "\tat okio.AsyncTimeout$source$1.read(AsyncTimeout.kt:128)\n"
                + "\t... 29 more\n";
        assertThat(ExceptionCauses.outcome(trace)).isNull();
    }

    @Test
    void theOutermostExceptionThatNamesOneWins() {
        String trace = "java.net.SocketTimeoutException: timeout\n\tat okio.X.y(X.kt:1)\n"
                + "Caused by: java.net.SocketException: Connection reset\n";
        assertThat(ExceptionCauses.outcome(trace)).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void nodesInspectedCausesAreRead() {
        String trace = "TypeError: fetch failed\n    at node:internal/deps/undici/undici:13510:13\n"
                + "    at process.processTicksAndRejections (node:internal/process/task_queues:105:5) {\n"
                + "  [cause]: Error: connect ECONNREFUSED 127.0.0.1:9\n      at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16) {\n";
        assertThat(ExceptionCauses.outcome(trace)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void aPythonTracebackIsReadFromItsExceptionLines() {
        String trace = "Traceback (most recent call last):\n  File \"/app/connect.py\", line 3, in <module>\n"
                + "    raise ReadTimeout\n"
                + "httpcore.ReadTimeout: The read operation timed out\n\n"
                + "The above exception was the direct cause of the following exception:\n\n"
                + "Traceback (most recent call last):\n  File \"/app/x.py\", line 9, in send\n"
                + "httpx.ReadTimeout: The read operation timed out\n";
        assertThat(ExceptionCauses.outcome(trace)).isEqualTo(Outcome.TIMEOUT);
        assertThat(ExceptionCauses.outcome("Traceback (most recent call last):\n  File \"/app/connect.py\", "
                + "line 3\nValueError: bad\n")).isNull();
    }

    @Test
    void nothingIsNothing() {
        assertThat(ExceptionCauses.outcome(null)).isNull();
        assertThat(ExceptionCauses.outcome("")).isNull();
        assertThat(ExceptionCauses.outcome("\n\n")).isNull();
    }
}
