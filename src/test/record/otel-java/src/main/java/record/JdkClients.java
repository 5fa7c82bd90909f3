package record;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/** Scenarios of the JDK's {@code java.net.http.HttpClient} with the application's own retry loop. */
final class JdkClients {
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private JdkClients() {}

  /** GETs the URL, re-sending on 429 and 503 up to three sends, after Retry-After or after {@code waitMs}. */
  static void get(String url, boolean honour, long waitMs) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).GET().build();
    for (int attempt = 1; ; attempt++) {
      HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
      System.out.println(url + " -> " + response.statusCode());
      int code = response.statusCode();
      if ((code != 429 && code != 503) || attempt == 3) {
        return;
      }
      Thread.sleep(honour ? response.headers().firstValueAsLong("retry-after").orElse(1) * 1000 : waitMs);
    }
  }

  /** POSTs the same body twice, 100 ms apart, when the first answer is a 400. */
  static void postAgainAfter400(String url) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"sku\":\"A-1\",\"qty\":0}")).build();
    int code = CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    System.out.println(url + " -> " + code);
    if (code == 400) {
      Thread.sleep(100);
      System.out.println(url + " -> " + CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
    }
  }

  /** POSTs with a 1 s request timeout and re-sends once, 200 ms after a timeout. */
  static void postAfterTimeout(String url, String key) throws IOException, InterruptedException {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(1))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"sku\":\"A-1\",\"qty\":1}"));
    if (key != null) {
      builder.header("Idempotency-Key", key);
    }
    HttpRequest request = builder.build();
    try {
      System.out.println(url + " -> " + CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
    } catch (HttpTimeoutException e) {
      System.out.println(url + " -> " + e);
      Thread.sleep(200);
      System.out.println(url + " -> " + CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
    }
  }
}
