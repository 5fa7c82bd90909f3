package record;

import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/** Scenarios of a resilience4j {@code Retry} around OkHttp calls. */
final class Resilience4jClients {
  private static final OkHttpClient CLIENT = new OkHttpClient();

  private Resilience4jClients() {}

  /** The status and Retry-After of one response, so that the retry can decide on a closed response. */
  record Result(int code, String retryAfter) {}

  /**
   * GETs the URL under a {@code Retry} of three attempts that retries results of 429 and 503: after a
   * fixed 100 ms, or (honour) after the response's Retry-After.
   */
  static void get(String url, boolean honour) {
    RetryConfig.Builder<Result> config = RetryConfig.<Result>custom().maxAttempts(3)
        .retryOnResult(r -> r.code() == 429 || r.code() == 503);
    if (honour) {
      IntervalBiFunction<Result> afterRetryAfter = (attempt, either) ->
          either.isRight() && either.get().retryAfter() != null
              ? Long.parseLong(either.get().retryAfter()) * 1000 : 100L;
      config.intervalBiFunction(afterRetryAfter);
    } else {
      config.waitDuration(Duration.ofMillis(100));
    }
    Retry retry = Retry.of("record", config.build());
    Result result = retry.executeSupplier(() -> call(url));
    System.out.println(url + " -> " + result.code());
  }

  private static Result call(String url) {
    try (Response response = CLIENT.newCall(new Request.Builder().url(url).build()).execute()) {
      return new Result(response.code(), response.header("Retry-After"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
