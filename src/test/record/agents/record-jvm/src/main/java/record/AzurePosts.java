package record;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.policy.ExponentialBackoff;
import com.azure.core.http.policy.HttpLogOptions;
import com.azure.core.http.policy.HttpLoggingPolicy;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.HttpPolicyProviders;
import com.azure.core.http.policy.RequestIdPolicy;
import com.azure.core.http.policy.RetryPolicy;
import com.azure.core.http.policy.UserAgentPolicy;
import com.azure.core.util.Context;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Keyless POSTs through an azure-core HttpPipeline built as the Azure SDK's client builders build
 * theirs: user agent and request id before the retry policy (so x-ms-client-request-id is the same
 * on every attempt), the retry policy (exponential backoff, three retries, 0.5 s base delay, honours
 * Retry-After), then the after-retry policies (the tracing policy) and logging, on Reactor Netty.
 */
final class AzurePosts {
  private AzurePosts() {}

  private static HttpPipeline pipeline() {
    List<HttpPipelinePolicy> policies = new ArrayList<>();
    policies.add(new UserAgentPolicy("record-jvm/1"));
    policies.add(new RequestIdPolicy());
    HttpPolicyProviders.addBeforeRetryPolicies(policies);
    policies.add(new RetryPolicy(new ExponentialBackoff(3, Duration.ofMillis(500), Duration.ofSeconds(8))));
    HttpPolicyProviders.addAfterRetryPolicies(policies);
    policies.add(new HttpLoggingPolicy(new HttpLogOptions()));
    return new HttpPipelineBuilder()
        .httpClient(new NettyAsyncHttpClientBuilder().build())
        .policies(policies.toArray(new HttpPipelinePolicy[0]))
        .build();
  }

  /**
   * POSTs one keyless charge; the fixture's configuration of the scenario decides the first
   * answer (a reset after the body was read, a 503 with Retry-After, a 429 with retry-after-ms).
   */
  static void postCharge(Fixture fixture) {
    String resource = "charges";
    HttpRequest request = new HttpRequest(HttpMethod.POST, fixture.azure(resource))
        .setHeader(HttpHeaderName.CONTENT_TYPE, "application/json")
        .setBody("{\"cart\":\"c-1\",\"amount\":1200}");
    try (HttpResponse response = pipeline().sendSync(request, Context.NONE)) {
      System.out.println("POST " + resource + " -> " + response.getStatusCode() + " " + response.getBodyAsBinaryData());
    }
  }

}
