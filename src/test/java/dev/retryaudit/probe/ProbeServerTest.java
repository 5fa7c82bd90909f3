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
            // The stuck connection's bytes are read by a thread of their own, which may come after the two requests.
            long until = System.nanoTime() + 10_000_000_000L;
            while (server.trace().unfinished() == 0 && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertThat(server.trace().unfinished()).isEqualTo(1);
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
    void aRequestCutOffAnywhereIsCountedAsUnfinishedAndNeverJournalled() throws Exception {
        List<String> cut = List.of(
                "GET /retry-after-probe HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                "GET /retry-after-probe HTTP/1.1\r\nHost: 127.0",
                "GET /retry-after-probe HTT",
                "POST /retry-after-probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n12345",
                "POST /retry-after-probe HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n");
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 0, HeaderFormat.SECONDS, 32), null, 0, 100)) {
            for (String request : cut) {
                try (Socket socket = connect(server)) {
                    socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                    socket.shutdownOutput();
                    assertThat(socket.getInputStream().read()).as(request).isEqualTo(-1);
                }
            }
            // a connection that closes before sending anything is no request at all
            connect(server).close();
            assertThat(get(server.url()).statusCode()).isEqualTo(429);

            RecordedTrace t = awaitUnfinished(server, cut.size());
            assertThat(t.attempts()).extracting(RecordedRequest::sequence).containsExactly(1);
            assertThat(t.otherRequests()).isEmpty();
        }
    }

    @Test
    void bytesThatAreNotAnHttpRequestAreAnswered400AndCountedAsUnfinished() throws Exception {
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 0, HeaderFormat.SECONDS, 32), null, 0, 100)) {
            String answer = exchange(server, "\u0016\u0003\u0001 hello\r\n\r\n");

            assertThat(answer).startsWith("HTTP/1.1 400 Bad Request\r\n").contains("\r\nConnection: close\r\n")
                    .endsWith("not an HTTP/1.x request: the request line is not METHOD TARGET HTTP/1.x\n");
            assertThat(awaitUnfinished(server, 1).attempts()).isEmpty();
        }
    }

    @Test
    void aChunkedBodyIsHashedWholeAndAnExpectedContinueIsGiven() throws Exception {
        Scenario s = new Scenario("POST", 429, 1, List.of(0L), HeaderFormat.SECONDS, 10, 0, true, "Idempotency-Key");
        try (ProbeServer server = ProbeServer.start(s, null, 0, 100); Socket socket = connect(server)) {
            OutputStream out = socket.getOutputStream();
            java.io.InputStream in = socket.getInputStream();
            out.write(("POST /retry-after-probe?x=1 HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n"
                    + "idempotency-key:  k-9 \r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(in.readNBytes(25), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
            out.write("3;x=y\r\n{\"a\r\n5\r\n\": 1}\r\n0\r\nTrailer: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            // a second request behind the first on the same connection, answered after it
            out.write("POST http://127.0.0.1/retry-after-probe HTTP/1.1\r\nContent-Length: 8\r\nConnection: close\r\n\r\n{\"a\": 1}"
                    .getBytes(StandardCharsets.US_ASCII));
            String answers = new String(in.readAllBytes(), StandardCharsets.US_ASCII);

            assertThat(answers).startsWith("HTTP/1.1 429 Too Many Requests\r\n").contains("\r\nRetry-After: 0\r\n")
                    .contains("HTTP/1.1 200 OK\r\n", "\"attempt\": 2, \"status\": 200, ");
            RecordedTrace t = server.trace();
            assertThat(t.attempts()).extracting(RecordedRequest::path).containsOnly(ProbeServer.PATH);
            assertThat(t.attempts()).extracting(RecordedRequest::requestHash).containsOnly(
                    "sha256:f9d86028c6e0d64e225186f96acb69338b2c59764df79162107f5c4bb34d1310");
            assertThat(t.attempts()).extracting(RecordedRequest::contentLength).containsExactly(8L, 8L);
            assertThat(t.attempts()).extracting(RecordedRequest::idempotencyKey).containsExactly("k-9", null);
            assertThat(t.attempts()).extracting(RecordedRequest::connection).containsExactly(1, 1);
            assertThat(t.unfinished()).isZero();
        }
    }

    @Test
    void anHttp10RequestIsAnsweredAndItsConnectionClosed() throws Exception {
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 0, HeaderFormat.SECONDS, 32), null, 0, 100)) {
            String answer = exchange(server, "GET / HTTP/1.0\r\n\r\n");

            assertThat(answer).startsWith("HTTP/1.1 429 Too Many Requests\r\nDate: ").contains("\r\nConnection: close\r\n");
            assertThat(server.trace().attempts()).extracting(RecordedRequest::path).containsExactly("/");
        }
    }

    @Test
    @Tag("timing")
    void pastTheBoundTheConnectionsStalledLongestAreClosed() throws Exception {
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 0, HeaderFormat.SECONDS, 32), null, 0, 100)) {
            List<Socket> stalled = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < ProbeServer.MAX_STALLED + 5; i++) {
                    Socket socket = connect(server);
                    stalled.add(socket);
                    socket.getOutputStream().write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                Thread.sleep(ProbeServer.STALLED_MILLIS + 500);
                assertThat(get(server.url()).statusCode()).isEqualTo(429);

                // the fresh client's connection closed the five stalled longest, and no other
                int closed = 0;
                for (Socket socket : stalled) {
                    socket.setSoTimeout(100);
                    try {
                        closed += socket.getInputStream().read() == -1 ? 1 : 0;
                    } catch (java.net.SocketTimeoutException e) {
                        // still open
                    }
                }
                assertThat(closed).isEqualTo(5);
                assertThat(awaitUnfinished(server, ProbeServer.MAX_STALLED + 5).attempts()).hasSize(1);
            } finally {
                for (Socket socket : stalled) {
                    socket.close();
                }
            }
        }
    }

    @Test
    @Tag("timing")
    void aFreshClientIsAnsweredAtOnceBeside150StalledConnections() throws Exception {
        try (ProbeServer server = ProbeServer.start(Scenario.of(429, 1, 0, HeaderFormat.SECONDS, 32), null, 0, 100)) {
            List<Socket> stalled = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 150; i++) {
                    Socket socket = connect(server);
                    stalled.add(socket);
                    socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                long start = System.nanoTime();
                HttpResponse<String> fresh = HTTP.send(HttpRequest.newBuilder(URI.create(server.url()))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                long tookMillis = (System.nanoTime() - start) / 1_000_000;

                assertThat(fresh.statusCode()).isEqualTo(429);
                // A server held up by the stalled connections answers only once they time out (10 s) or the
                // client gives up (5 s); 3 s leaves a loaded machine room without hiding that.
                assertThat(tookMillis).isLessThan(ProbeServer.READ_TIMEOUT_SECONDS * 300L);
            } finally {
                for (Socket socket : stalled) {
                    socket.close();
                }
            }
            assertThat(awaitUnfinished(server, 150).attempts()).hasSize(1);
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

    private static Socket connect(ProbeServer server) throws Exception {
        Socket socket = new Socket("127.0.0.1", URI.create(server.url()).getPort());
        socket.setSoTimeout(5000);
        return socket;
    }

    /** What the server answers {@code request}, sent on a connection of its own, until it closes the connection. */
    private static String exchange(ProbeServer server, String request) throws Exception {
        try (Socket socket = connect(server)) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /** The trace once the server has counted {@code n} unfinished requests (its threads see a closed connection in their own time). */
    private static RecordedTrace awaitUnfinished(ProbeServer server, long n) throws InterruptedException {
        for (int i = 0; i < 500 && server.trace().unfinished() < n; i++) {
            Thread.sleep(10);
        }
        RecordedTrace t = server.trace();
        assertThat(t.unfinished()).isEqualTo(n);
        return t;
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
