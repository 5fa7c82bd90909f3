package record;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.TimeUnit;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.TimeValue;

/**
 * Small HTTP client scenarios run under the OpenTelemetry Java agent. One scenario per JVM:
 * {@code java -javaagent:... -Drecord.base=http://127.0.0.1:PORT [-Drecord.suffix=-zipkin] -cp ...
 * record.Clients CASE}.
 */
public final class Clients {
  private static final MediaType JSON = MediaType.get("application/json");

  private Clients() {}

  public static void main(String[] args) throws Exception {
    String base = System.getProperty("record.base", "http://127.0.0.1:8765");
    String scenario = args[0];
    // The server counts requests per path: a scenario recorded a second time needs a suffix.
    String name = scenario + System.getProperty("record.suffix", "");
    switch (scenario) {
      case "okhttp-honoured-429-parent" -> inParent(name, () ->
          okGet(retrying(true, 3, 100, 10), base + "/rl/" + name + "?n=1&code=429&ra=1"));
      case "okhttp-honoured-429-root" ->
          okGet(retrying(true, 3, 100, 10), base + "/rl/" + name + "?n=1&code=429&ra=1");
      case "okhttp-ignored-503-root" ->
          okGet(retrying(false, 3, 100, 10), base + "/rl/" + name + "?n=2&code=503&ra=2");
      case "okhttp-ignored-429-parent" -> inParent(name, () ->
          okGet(retrying(false, 3, 100, 10), base + "/rl/" + name + "?n=1&code=429&ra=2"));
      case "okhttp-honoured-503-http-date" -> inParent(name, () ->
          okGet(retrying(true, 3, 100, 10), base + "/rl/" + name + "?n=1&code=503&ra=date:2"));
      case "okhttp-post-timeout-keyless" -> inParent(name, () ->
          okPost(retrying(true, 2, 200, 1), base + "/stall/" + name + "?n=1&ms=2500", null));
      case "okhttp-post-timeout-keyed" -> inParent(name, () ->
          okPost(retrying(true, 2, 200, 1), base + "/stall/" + name + "?n=1&ms=2500",
              "order-7f3a-0001"));
      case "okhttp-two-threads-root" -> twoThreads(() ->
          okGet(retrying(true, 3, 100, 10), base + "/rl/" + name + "?n=2&code=429&ra=1"));
      case "okhttp-builtin-408" -> inParent(name, () ->
          okGet(new OkHttpClient(), base + "/rl/" + name + "?n=1&code=408&ra=none"));
      case "apache5-honoured-429" -> inParent(name, () ->
          apacheGet(new DefaultHttpRequestRetryStrategy(2, TimeValue.ofSeconds(1)),
              base + "/rl/" + name + "?n=1&code=429&ra=1"));
      case "apache5-ignored-503" -> inParent(name, () ->
          apacheGet(new IgnoringRetryAfter(), base + "/rl/" + name + "?n=2&code=503&ra=2"));
      case "jdk-honoured-429" -> inParent(name, () ->
          JdkClients.get(base + "/rl/" + name + "?n=1&code=429&ra=1", true, 100));
      case "jdk-ignored-503" -> inParent(name, () ->
          JdkClients.get(base + "/rl/" + name + "?n=2&code=503&ra=2", false, 100));
      case "jdk-post-timeout-keyless" -> inParent(name, () ->
          JdkClients.postAfterTimeout(base + "/stall/" + name + "?n=1&ms=2500", null));
      case "jdk-post-timeout-keyed" -> inParent(name, () ->
          JdkClients.postAfterTimeout(base + "/stall/" + name + "?n=1&ms=2500", "order-7f3a-0003"));
      case "r4j-okhttp-ignored-503" -> inParent(name, () ->
          Resilience4jClients.get(base + "/rl/" + name + "?n=2&code=503&ra=2", false));
      case "r4j-okhttp-honoured-429" -> inParent(name, () ->
          Resilience4jClients.get(base + "/rl/" + name + "?n=1&code=429&ra=1", true));
      case "restclient-honoured-503" -> inParent(name, () ->
          SpringClients.restGet(base + "/rl/" + name + "?n=1&code=503&ra=1", true));
      case "restclient-ignored-503" -> inParent(name, () ->
          SpringClients.restGet(base + "/rl/" + name + "?n=1&code=503&ra=2", false));
      case "restclient-post-timeout-keyless" -> inParent(name, () ->
          SpringClients.restPostAfterTimeout(base + "/stall/" + name + "?n=1&ms=2500", null));
      case "webclient-post-timeout-keyless" -> inParent(name, () ->
          SpringClients.webPostAfterTimeout(base + "/stall/" + name + "?n=1&ms=2500", null));
      case "webclient-post-timeout-keyed" -> inParent(name, () ->
          SpringClients.webPostAfterTimeout(base + "/stall/" + name + "?n=1&ms=2500", "order-7f3a-0004"));
      case "jdk-post-400-resent" -> inParent(name, () ->
          JdkClients.postAgainAfter400(base + "/rl/" + name + "?n=2&code=400&ra=none"));
      case "webclient-ignored-503-root" ->
          SpringClients.webGetIgnoringRetryAfter(base + "/rl/" + name + "?n=2&code=503&ra=2");
      default -> throw new IllegalArgumentException("unknown scenario " + scenario);
    }
  }

  interface Call {
    void run() throws Exception;
  }

  private static void inParent(String name, Call call) throws Exception {
    Span span = GlobalOpenTelemetry.getTracer("record").spanBuilder(name).startSpan();
    try (Scope ignored = span.makeCurrent()) {
      call.run();
    } finally {
      span.end();
    }
  }

  /** Runs the call on two threads at once, with no active span: each send is a root span. */
  private static void twoThreads(Call call) throws Exception {
    Exception[] failure = new Exception[1];
    Thread[] threads = new Thread[2];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = new Thread(() -> {
        try {
          call.run();
        } catch (Exception e) {
          failure[0] = e;
        }
      }, "client-" + (i + 1));
      threads[i].start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure[0] != null) {
      throw failure[0];
    }
  }

  private static OkHttpClient retrying(boolean honour, int maxAttempts, long waitMs, int timeoutS) {
    return new OkHttpClient.Builder()
        .readTimeout(timeoutS, TimeUnit.SECONDS)
        .addInterceptor(new RetryInterceptor(honour, maxAttempts, waitMs))
        .build();
  }

  private static void okGet(OkHttpClient client, String url) throws IOException {
    try (Response response = client.newCall(new Request.Builder().url(url).build()).execute()) {
      System.out.println(url + " -> " + response.code());
    }
  }

  private static void okPost(OkHttpClient client, String url, String key) throws IOException {
    Request.Builder request = new Request.Builder().url(url)
        .post(RequestBody.create("{\"sku\":\"A-1\",\"qty\":1}", JSON));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    try (Response response = client.newCall(request.build()).execute()) {
      System.out.println(url + " -> " + response.code());
    }
  }

  private static void apacheGet(DefaultHttpRequestRetryStrategy strategy, String url) throws Exception {
    try (CloseableHttpClient client = HttpClients.custom().setRetryStrategy(strategy).build()) {
      int code = client.execute(new HttpGet(url), response -> {
        EntityUtils.consume(response.getEntity());
        return response.getCode();
      });
      System.out.println(url + " -> " + code);
    }
  }

  /** An application interceptor that re-sends on 429/503 and on a read timeout. */
  private static final class RetryInterceptor implements Interceptor {
    private final boolean honour;
    private final int maxAttempts;
    private final long waitMs;

    RetryInterceptor(boolean honour, int maxAttempts, long waitMs) {
      this.honour = honour;
      this.maxAttempts = maxAttempts;
      this.waitMs = waitMs;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
      for (int attempt = 1; ; attempt++) {
        try {
          Response response = chain.proceed(chain.request());
          int code = response.code();
          if ((code == 429 || code == 503) && attempt < maxAttempts) {
            long wait = honour ? retryAfterMillis(response.header("Retry-After")) : waitMs;
            response.close();
            sleep(wait);
            continue;
          }
          return response;
        } catch (SocketTimeoutException e) {
          if (attempt >= maxAttempts) {
            throw e;
          }
          sleep(waitMs);
        }
      }
    }

    private long retryAfterMillis(String value) {
      if (value == null) {
        return waitMs;
      }
      if (value.chars().allMatch(Character::isDigit)) {
        return Long.parseLong(value) * 1000;
      }
      ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
      return Math.max(0, at.toInstant().toEpochMilli() - System.currentTimeMillis()) + 50;
    }

    private static void sleep(long ms) throws InterruptedIOException {
      try {
        Thread.sleep(ms);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted");
      }
    }
  }

  /** Apache's default strategy with a fixed 100 ms interval that ignores Retry-After. */
  private static final class IgnoringRetryAfter extends DefaultHttpRequestRetryStrategy {
    IgnoringRetryAfter() {
      super(2, TimeValue.ofMilliseconds(100));
    }

    @Override
    public TimeValue getRetryInterval(HttpResponse response, int execCount, HttpContext context) {
      return TimeValue.ofMilliseconds(100);
    }
  }
}
