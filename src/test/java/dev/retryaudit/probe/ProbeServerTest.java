package dev.retryaudit.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.CommitState;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class ProbeServerTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String EMPTY_SHA256 = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @Test
    void answersFailuresWithRetryAfterFromTheScheduleThenSuccessThenGone() throws Exception {
        Scenario s = new Scenario("GET", 503, 3, List.of(7L, 1L), HeaderFormat.SECONDS, 4, 0, true, "Idempotency-Key");
        try (ProbeServer server = ProbeServer.start(s, "client", 0, 100)) {
            assertThat(server.url()).startsWith("http://127.0.0.1:").endsWith(ProbeServer.PATH);

            List<HttpResponse<String>> r = List.of(get(server.url()), get(server.url()), get(server.url()),
                    get(server.url()), get(server.url()));

            assertThat(r).extracting(HttpResponse::statusCode).containsExactly(503, 503, 503, 200, 410);
            assertThat(r).extracting(x -> x.headers().firstValue("Retry-After").orElse(null))
                    .containsExactly("7", "1", "7", null, null);
            assertThat(r.get(3).headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(r.get(3).body()).matches("\\{\"fixture\": \"retry-audit probe test server\", \"attempt\": 4, "
                    + "\"status\": 200, \"server_received_at\": \"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\"}\n");

            RecordedTrace t = server.trace();
            assertThat(t.client()).isEqualTo("client");
            assertThat(t.attempts()).extracting(RecordedRequest::sequence).containsExactly(1, 2, 3, 4, 5);
            assertThat(t.attempts()).extracting(RecordedRequest::retryAfter).containsExactly("7", "1", "7", null, null);
            assertThat(t.attempts()).extracting(RecordedRequest::commitState).containsOnlyNulls();
            assertThat(t.attempts()).extracting(RecordedRequest::requestHash).containsOnly(EMPTY_SHA256);
            assertThat(t.attempts()).extracting(RecordedRequest::path).containsOnly(ProbeServer.PATH);
            assertThat(t.reachedSuccess()).isTrue();
            assertThat(t.otherRequests()).isEmpty();
        }
    }

    @Test
    void requestsArrivingTogetherAreJournalledWithTimesInTheirOrder() throws Exception {
        Scenario s = new Scenario("GET", 429, 40, List.of(0L), HeaderFormat.SECONDS, 100, 0, true, "Idempotency-Key");
        try (ProbeServer server = ProbeServer.start(s, null, 0, 100)) {
            List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> sent = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                sent.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create(server.url())).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            sent.forEach(java.util.concurrent.CompletableFuture::join);

            List<RecordedRequest> journal = server.trace().attempts();
            assertThat(journal).hasSize(40);
            assertThat(journal).extracting(RecordedRequest::receivedMillis).isSorted();
        }
    }

    @Test
    void theJournalKeepsTheKeyTheBodyHashAndLengthAndTheServersCommits() throws Exception {
        Scenario s = new Scenario("POST", 429, 1, List.of(0L), HeaderFormat.SECONDS, 10, 0, true, "X-Key");
        try (ProbeServer server = ProbeServer.start(s, null, 0, 100)) {
            HttpResponse<String> rejected = post(server.url(), "k-1", "{\"a\": 1}");
            HttpResponse<String> committed = post(server.url(), "k-1", "{\"a\": 1}");
            HttpResponse<String> replayed = post(server.url(), "k-1", "{\"a\": 1}");
            HttpResponse<String> keyless = post(server.url(), null, "{}");
            HttpResponse<String> get = get(server.url());

            assertThat(List.of(rejected, committed, replayed, keyless, get)).extracting(HttpResponse::statusCode)
                    .containsExactly(429, 200, 200, 200, 405);
            assertThat(replayed.body()).contains("\"replay_of\": 2");
            assertThat(get.headers().firstValue("Allow")).hasValue("POST");
            RecordedTrace t = server.trace();
            assertThat(t.attempts()).extracting(RecordedRequest::idempotencyKey).containsExactly("k-1", "k-1", "k-1", null);
            assertThat(t.attempts()).extracting(RecordedRequest::commitState).containsExactly(CommitState.REJECTED,
                    CommitState.COMMITTED, CommitState.REJECTED, CommitState.COMMITTED);
            assertThat(t.attempts()).extracting(RecordedRequest::replayOf).containsExactly(0, 0, 2, 0);
            assertThat(t.attempts()).extracting(RecordedRequest::contentLength).containsExactly(8L, 8L, 8L, 2L);
            assertThat(t.attempts().get(0).requestHash())
                    .isEqualTo("sha256:f9d86028c6e0d64e225186f96acb69338b2c59764df79162107f5c4bb34d1310");
            assertThat(t.otherRequests()).extracting(RecordedRequest::method).containsExactly("GET");
        }
    }

    @Test
    void withoutDedupeASecondWriteUnderTheSameKeyCommitsAgain() throws Exception {
        Scenario s = new Scenario("PUT", 429, 1, List.of(0L), HeaderFormat.SECONDS, 10, 0, false, "Idempotency-Key");
        try (ProbeServer server = ProbeServer.start(s, null, 0, 100)) {
            for (int i = 0; i < 3; i++) {
                HTTP.send(HttpRequest.newBuilder(URI.create(server.url())).header("Idempotency-Key", "k")
                        .PUT(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.discarding());
            }
            assertThat(server.trace().attempts()).extracting(RecordedRequest::commitState)
                    .containsExactly(CommitState.REJECTED, CommitState.COMMITTED, CommitState.COMMITTED);
        }
    }

    @Test
    @Tag("timing")
    void aHeldRequestIsCommittedThenAnsweredAfterTheStall() throws Exception {
        Scenario s = new Scenario("POST", 429, 1, List.of(3L), HeaderFormat.SECONDS, 10, 1, true, "Idempotency-Key");
        try (ProbeServer server = ProbeServer.start(s, null, 0, 100)) {
            HttpResponse<String> held = post(server.url(), "k", "x");

            assertThat(held.statusCode()).isEqualTo(200);
            assertThat(held.headers().firstValue("Retry-After")).isEmpty();
            RecordedRequest r = server.trace().attempts().get(0);
            assertThat(r.stalledMillis()).isEqualTo(1000);
            assertThat(r.commitState()).isEqualTo(CommitState.COMMITTED);
            assertThat(r.ask()).isNull();
            assertThat(server.trace().reachedSuccess()).isFalse();
        }
    }

    @Test
    void aConnectionThatNeverFinishesItsRequestHoldsUpNoOther() throws Exception {
        Scenario s = Scenario.of(429, 1, 0, HeaderFormat.SECONDS, 32);
        try (ProbeServer server = ProbeServer.start(s, null, 0, 100);
                Socket stuck = new Socket("127.0.0.1", URI.create(server.url()).getPort())) {
            OutputStream out = stuck.getOutputStream();
            out.write("GET /retry-after-probe HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            assertThat(get(server.url()).statusCode()).isEqualTo(429);
            assertThat(get(server.url()).statusCode()).isEqualTo(200);
            assertThat(server.trace().attempts()).hasSize(2);
        }
    }

    @Test
    void requestsOfTheSameConnectionShareItsNumber() throws Exception {
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 0, HeaderFormat.SECONDS, 32), null, 0, 100)) {
            get(server.url());
            get(server.url());
            HttpClient other = HttpClient.newHttpClient();
            other.send(HttpRequest.newBuilder(URI.create(server.url())).build(), HttpResponse.BodyHandlers.discarding());

            assertThat(server.trace().attempts()).extracting(RecordedRequest::connection).containsExactly(1, 1, 2);
            assertThat(server.trace().connections()).isEqualTo(2);
        }
    }

    @Test
    void headIsAnotherMethodAndGetsNoBody() throws Exception {
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 1, HeaderFormat.SECONDS, 32), null, 0, 100)) {
            HttpResponse<String> head = HTTP.send(HttpRequest.newBuilder(URI.create(server.url()))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(head.statusCode()).isEqualTo(405);
            assertThat(head.body()).isEmpty();
            assertThat(server.trace().otherRequests()).extracting(RecordedRequest::method).containsExactly("HEAD");
            assertThat(server.trace().attempts()).isEmpty();
        }
    }

    @Test
    void bothHeadersAreSentBesideEachOther() throws Exception {
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 2, HeaderFormat.RETRY_AFTER_MS_AND_SECONDS, 32),
                null, 0, 100)) {
            HttpResponse<String> r = get(server.url());

            assertThat(r.headers().firstValue("retry-after-ms")).hasValue("2000");
            assertThat(r.headers().firstValue("Retry-After")).hasValue("5");
        }
    }

    @Test
    void theServerSendsWithoutNagleAndLimitsTheTimeToReadARequest() throws Exception {
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 0, HeaderFormat.SECONDS, 32), null, 0, 2)) {
            assertThat(System.getProperty("sun.net.httpserver.nodelay")).isEqualTo("true");
            assertThat(System.getProperty("sun.net.httpserver.maxReqTime"))
                    .isEqualTo(Integer.toString(ProbeServer.READ_TIMEOUT_SECONDS));
        }
    }

    @Test
    void requestsPastTheJournalsCapacityAreCounted() throws Exception {
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 0, HeaderFormat.SECONDS, 32), null, 0, 2)) {
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

    private static HttpResponse<String> post(String url, String key, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("X-Key", key).header("Idempotency-Key", key);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
