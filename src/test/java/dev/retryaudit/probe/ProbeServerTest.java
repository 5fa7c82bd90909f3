package dev.retryaudit.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeServerTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void answersFailuresWithRetryAfterThenSuccessThenGone() throws Exception {
        try (ProbeServer server = ProbeServer.start(new Scenario(503, 2, 7, HeaderFormat.SECONDS, 3), 0, 100)) {
            assertThat(server.url()).startsWith("http://127.0.0.1:").endsWith(ProbeServer.PATH);

            HttpResponse<String> first = get(server.url());
            HttpResponse<String> second = get(server.url());
            HttpResponse<String> third = get(server.url());
            HttpResponse<String> fourth = get(server.url());

            assertThat(List.of(first.statusCode(), second.statusCode(), third.statusCode(), fourth.statusCode()))
                    .containsExactly(503, 503, 200, 410);
            assertThat(first.headers().firstValue("Retry-After")).hasValue("7");
            assertThat(second.headers().firstValue("Retry-After")).hasValue("7");
            assertThat(third.headers().firstValue("Retry-After")).isEmpty();
            assertThat(fourth.headers().firstValue("Retry-After")).isEmpty();
            assertThat(third.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(third.body()).matches("\\{\"attempt\": 3, \"status\": 200, \"server_received_at\": "
                    + "\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\"}\n");

            RecordedTrace t = server.trace();
            assertThat(t.attempts()).extracting(RecordedRequest::sequence).containsExactly(1, 2, 3, 4);
            assertThat(t.attempts()).extracting(RecordedRequest::status).containsExactly(503, 503, 200, 410);
            assertThat(t.attempts()).extracting(RecordedRequest::retryAfter).containsExactly("7", "7", null, null);
            assertThat(t.attempts().get(1).receivedMillis()).isGreaterThanOrEqualTo(t.attempts().get(0).receivedMillis());
            assertThat(t.reachedSuccess()).isTrue();
            assertThat(t.otherRequests()).isEmpty();
        }
    }

    @Test
    void otherMethodsGet405AndAreRecordedApart() throws Exception {
        try (ProbeServer server = ProbeServer.start(new Scenario(429, 1, 1, HeaderFormat.SECONDS, 32), 0, 100)) {
            HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(URI.create(server.url()))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"a\": 1}")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> get = get(server.url());

            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(post.headers().firstValue("Allow")).hasValue("GET");
            assertThat(get.statusCode()).isEqualTo(429);
            RecordedTrace t = server.trace();
            assertThat(t.otherRequests()).extracting(RecordedRequest::method).containsExactly("POST");
            assertThat(t.attempts()).extracting(RecordedRequest::sequence).containsExactly(1);
            assertThat(t.reachedSuccess()).isFalse();
        }
    }

    @Test
    void headIsAnotherMethodAndGetsNoBody() throws Exception {
        try (ProbeServer server = ProbeServer.start(new Scenario(429, 1, 1, HeaderFormat.SECONDS, 32), 0, 100)) {
            HttpResponse<String> head = HTTP.send(HttpRequest.newBuilder(URI.create(server.url()))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(head.statusCode()).isEqualTo(405);
            assertThat(head.body()).isEmpty();
            assertThat(server.trace().otherRequests()).extracting(RecordedRequest::method).containsExactly("HEAD");
            assertThat(server.trace().attempts()).isEmpty();
        }
    }

    @Test
    void anHttpDateIsTheReceiptSecondPlusTheDelay() throws Exception {
        try (ProbeServer server = ProbeServer.start(new Scenario(429, 1, 3, HeaderFormat.HTTP_DATE, 32), 0, 100)) {
            HttpResponse<String> r = get(server.url());

            RecordedRequest rec = server.trace().attempts().get(0);
            assertThat(r.headers().firstValue("Retry-After")).hasValue(rec.retryAfter());
            assertThat(rec.retryAfter()).isEqualTo(HeaderFormat.HTTP_DATE.retryAfter(rec.receivedMillis(), 3));
        }
    }

    @Test
    void requestsPastTheRecordingCapAreCounted() throws Exception {
        try (ProbeServer server = ProbeServer.start(new Scenario(429, 1, 0, HeaderFormat.SECONDS, 32), 0, 2)) {
            for (int i = 0; i < 4; i++) {
                get(server.url());
            }
            assertThat(server.trace().attempts()).hasSize(2);
            assertThat(server.trace().unrecorded()).isEqualTo(2);
        }
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
