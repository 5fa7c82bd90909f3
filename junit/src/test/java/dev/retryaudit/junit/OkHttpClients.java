package dev.retryaudit.junit;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Two OkHttp clients that retry a 429 or 503 up to five times: one with an interceptor that waits what
 * Retry-After asks, and one whose interceptor waits a fixed half second, as many hand-written retry loops do.
 */
final class OkHttpClients {
    private OkHttpClients() {
    }

    /** A client whose interceptor honours Retry-After in seconds. */
    static OkHttpClient honouringRetryAfter() {
        return new OkHttpClient.Builder().addInterceptor(retrying(true)).build();
    }

    /** A client whose interceptor retries after a fixed 500 ms, whatever Retry-After asks. */
    static OkHttpClient fixedBackoff() {
        return new OkHttpClient.Builder().addInterceptor(retrying(false)).build();
    }

    /** GETs {@code url} and returns the final status. */
    static int get(OkHttpClient client, String url) throws IOException {
        try (Response r = client.newCall(new Request.Builder().url(url).build()).execute()) {
            return r.code();
        }
    }

    private static Interceptor retrying(boolean readRetryAfter) {
        return chain -> {
            Response response = chain.proceed(chain.request());
            for (int attempt = 1; attempt < 5 && (response.code() == 429 || response.code() == 503); attempt++) {
                String header = response.header("Retry-After");
                long waitMillis = readRetryAfter ? RetryAfter.before(attempt, header).toMillis() : 500;
                response.close();
                try {
                    Thread.sleep(waitMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting to retry", e);
                }
                response = chain.proceed(chain.request());
            }
            return response;
        };
    }
}
