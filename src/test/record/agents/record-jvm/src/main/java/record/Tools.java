package record;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The agent's payment tool. It POSTs the charge with the JDK HttpClient and a 1 s request timeout;
 * a failure (an {@code HttpTimeoutException}, or an answer of 400 or more, thrown as an
 * {@code IOException}) propagates, so LangChain4j hands its message to the model as the tool's result. With {@code keyed}, the Idempotency-Key is derived from the cart and
 * amount, so a re-call with the same arguments carries the same key.
 */
public final class Tools {
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final URI payments;
  private final boolean keyed;

  Tools(URI payments, boolean keyed) {
    this.payments = payments;
    this.keyed = keyed;
  }

  @Tool("Charges the customer's cart with the given amount in cents")
  public String chargeCart(@P("the cart id") String cart, @P("the amount in cents") int amount)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(payments).timeout(Duration.ofSeconds(1))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"cart\":\"" + cart + "\",\"amount\":" + amount + "}"));
    if (keyed) {
      request.header("Idempotency-Key", "charge-" + cart + "-" + amount);
    }
    HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    System.out.println("chargeCart(" + cart + ", " + amount + ") -> " + response.statusCode());
    if (response.statusCode() >= 400) {
      throw new IOException("payments answered " + response.statusCode() + ": " + response.body().strip());
    }
    return response.body();
  }
}
