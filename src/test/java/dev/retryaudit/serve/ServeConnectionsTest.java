package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Limits;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code serve} against clients that stall, trickle, send too much or hold connections: no one client stalls another. */
class ServeConnectionsTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static Serve serve(Serve.Connections connections) throws IOException {
        Limits small = new Limits(1 << 20, Limits.DEFAULTS.operations(), Limits.DEFAULTS.attemptsPerOperation(),
                Limits.DEFAULTS.stringLength(), Limits.DEFAULTS.depth());
        return Serve.start(RetryAudit.defaults(), new Serve.Settings(new InetSocketAddress("127.0.0.1", 0),
                Duration.ofHours(1), 1_000_000, small, connections, null), f -> { }, line -> { });
    }

    private static CompletableFuture<HttpResponse<String>> export(Serve s) throws IOException {
        return HTTP.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.address().getPort() + "/v1/traces"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Files.readAllBytes(
                        Path.of("src/test/resources/input/otlp/agent-checkout.json")))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Socket open(Serve s, String sent) throws IOException {
        Socket socket = new Socket("127.0.0.1", s.address().getPort());
        socket.setSoTimeout(60_000);
        OutputStream out = socket.getOutputStream();
        out.write(sent.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return socket;
    }

    /** The status line the server answers on {@code socket}, or null when it closed the connection without one. */
    private static String statusLine(Socket socket) throws IOException {
        return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1)).readLine();
    }

    @Test
    void halfSentRequestsDoNotDelayAnotherClientsExport() throws Exception {
        try (Serve s = serve(Serve.Connections.DEFAULTS)) {
            List<Socket> stalled = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    // A request line alone; headers that stop; a body that stops a tenth of the way.
                    stalled.add(open(s, "POST /v1/traces HTTP/1.1\r\n"));
                    stalled.add(open(s, "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: appl"));
                    stalled.add(open(s, "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 1000\r\n\r\n{\"resourceSpans\":["));
                }
                // Nine stalled clients and a tenth that exports: answered at once, not after the stalled ones time out.
                HttpResponse<String> r = export(s).get(10, TimeUnit.SECONDS);
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(s.spansReceived()).isEqualTo(11);
            } finally {
                for (Socket socket : stalled) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aStalledRequestIsClosedAfterTheReadTimeout() throws Exception {
        try (Serve s = serve(new Serve.Connections(Duration.ofMillis(500), 256));
                Socket headers = open(s, "POST /v1/traces HTTP/1.1\r\nHost: x\r\n");
                Socket body = open(s, "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 1000\r\n\r\n{")) {
            // Headers that stop: closed without an answer; a body that stops: 408. Never left open (the read would fail).
            assertThat(statusLine(headers)).isNull();
            assertThat(statusLine(body)).isEqualTo("HTTP/1.1 408 Request Timeout");
        }
    }

    @Test
    void oversizedHeadersAre431() throws Exception {
        try (Serve s = serve(Serve.Connections.DEFAULTS)) {
            StringBuilder request = new StringBuilder("POST /v1/traces HTTP/1.1\r\nHost: x\r\nX-Big: ");
            request.append("a".repeat(10 << 20)).append("\r\n\r\n");
            try (Socket socket = new Socket("127.0.0.1", s.address().getPort())) {
                socket.setSoTimeout(60_000);
                CompletableFuture<Void> send = CompletableFuture.runAsync(() -> {
                    try {
                        socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
                    } catch (IOException e) {
                        // The server closes the connection once it has answered: the rest is not sent.
                    }
                });
                assertThat(statusLine(socket)).startsWith("HTTP/1.1 431 ");
                send.get(60, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aContentLengthOverTheLimitIsRefusedBeforeTheBodyIsSent() throws Exception {
        try (Serve s = serve(Serve.Connections.DEFAULTS);
                Socket socket = open(s, "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 2147483648\r\n\r\n")) {
            assertThat(statusLine(socket)).isEqualTo("HTTP/1.1 413 Payload Too Large");
        }
    }

    @Test
    void pastTheConnectionLimitAClientWaitsForAConnectionToClose() throws Exception {
        try (Serve s = serve(new Serve.Connections(Duration.ofSeconds(30), 2))) {
            Socket first = open(s, "");
            Socket second = open(s, "");
            CompletableFuture<HttpResponse<String>> third = export(s);
            try {
                first.close();
                assertThat(third.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            } finally {
                second.close();
            }
        }
    }
}
