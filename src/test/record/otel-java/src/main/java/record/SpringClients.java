package record;

import io.netty.channel.ChannelOption;
import java.time.Duration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.netty.http.client.HttpClient;
import reactor.util.retry.Retry;

/**
 * Scenarios of Spring's {@code RestClient} (on {@code HttpURLConnection}, the
 * {@code SimpleClientHttpRequestFactory}) with the application's own retry loop, and of
 * {@code WebClient} on Reactor Netty with {@code retryWhen(Retry.backoff(...))}.
 */
final class SpringClients {
  private static final String BODY = "{\"sku\":\"A-1\",\"qty\":1}";

  private SpringClients() {}

  private static RestClient restClient(int readTimeoutMs) {
    SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
    factory.setReadTimeout(readTimeoutMs);
    return RestClient.builder().requestFactory(factory).build();
  }

  /** GETs with RestClient, re-sending after a 503 up to three sends, after Retry-After or after 100 ms. */
  static void restGet(String url, boolean honour) throws InterruptedException {
    RestClient client = restClient(10_000);
    for (int attempt = 1; ; attempt++) {
      try {
        String body = client.get().uri(url).retrieve().body(String.class);
        System.out.println(url + " -> " + body);
        return;
      } catch (HttpServerErrorException e) {
        System.out.println(url + " -> " + e.getStatusCode());
        if (e.getStatusCode() != HttpStatus.SERVICE_UNAVAILABLE || attempt == 3) {
          throw e;
        }
        String retryAfter = e.getResponseHeaders() == null ? null : e.getResponseHeaders().getFirst("Retry-After");
        Thread.sleep(honour && retryAfter != null ? Long.parseLong(retryAfter) * 1000 : 100);
      }
    }
  }

  /** POSTs with RestClient and a 1 s read timeout, re-sending once 200 ms after the timeout. */
  static void restPostAfterTimeout(String url, String key) throws InterruptedException {
    RestClient client = restClient(1000);
    for (int attempt = 1; attempt <= 2; attempt++) {
      try {
        RestClient.RequestBodySpec request = client.post().uri(url).contentType(MediaType.APPLICATION_JSON);
        if (key != null) {
          request.header("Idempotency-Key", key);
        }
        System.out.println(url + " -> " + request.body(BODY).retrieve().toBodilessEntity().getStatusCode());
        return;
      } catch (ResourceAccessException e) {
        System.out.println(url + " -> " + e);
        Thread.sleep(200);
      }
    }
  }

  private static WebClient webClient(Duration responseTimeout) {
    HttpClient http = HttpClient.create().option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2000)
        .responseTimeout(responseTimeout);
    return WebClient.builder().clientConnector(new ReactorClientHttpConnector(http)).build();
  }

  /**
   * POSTs with WebClient and a 1 s response timeout, retried by {@code Retry.backoff(2, 200 ms)} on
   * {@code WebClientRequestException} (which wraps Reactor Netty's {@code ReadTimeoutException}).
   */
  static void webPostAfterTimeout(String url, String key) {
    WebClient.RequestBodySpec request = webClient(Duration.ofSeconds(1)).post().uri(url)
        .contentType(MediaType.APPLICATION_JSON);
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    String status = request.bodyValue(BODY).retrieve().toBodilessEntity()
        .retryWhen(Retry.backoff(2, Duration.ofMillis(200)).filter(e -> e instanceof WebClientRequestException))
        .map(entity -> entity.getStatusCode().toString()).block(Duration.ofSeconds(20));
    System.out.println(url + " -> " + status);
  }

  /** GETs with WebClient, retried by {@code Retry.backoff(2, 100 ms)} on a 503, ignoring Retry-After. */
  static void webGetIgnoringRetryAfter(String url) {
    String body = webClient(Duration.ofSeconds(10)).get().uri(url).retrieve().bodyToMono(String.class)
        .retryWhen(Retry.backoff(2, Duration.ofMillis(100))
            .filter(e -> e instanceof WebClientResponseException.ServiceUnavailable))
        .block(Duration.ofSeconds(20));
    System.out.println(url + " -> " + body);
  }
}
