package dev.retryaudit.serve;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The client of {@link ServeJavaAgentIT}: a JVM that the OpenTelemetry Java agent instruments, started by
 * {@code serve -- COMMAND}. It waits before its first request (a suite compiling, a slow fixture), then sends a
 * GET with the JDK's {@code HttpClient} and, on a 503, sends it again: after 200 ms ({@code early}) or after the
 * Retry-After's seconds ({@code honour}). Arguments: the URL, the mode and the wait before the first request in
 * milliseconds.
 */
public final class AgentRecipeClient {
    private AgentRecipeClient() {
    }

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        boolean honour = args[1].equals("honour");
        Thread.sleep(Long.parseLong(args[2]));
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (int attempt = 0; attempt < 3; attempt++) {
            HttpResponse<Void> r = client.send(HttpRequest.newBuilder(url).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() != 503) {
                return;
            }
            long wait = honour ? Long.parseLong(r.headers().firstValue("Retry-After").orElse("1")) * 1000 : 200;
            Thread.sleep(wait);
        }
        throw new IllegalStateException("still 503 after three attempts");
    }
}
