package record;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The agent's payment tools, on the JDK HttpClient with a 1 s request timeout: {@code chargeCart}
 * POSTs the charge, {@code getCart} GETs the cart. A failure (an {@code HttpTimeoutException}, or an
 * answer of 400 or more, thrown as an {@code IOException}) propagates, so LangChain4j hands its
 * message to the model as the tool's result. With {@code keyed}, the charge's Idempotency-Key is
 * derived from the cart and amount, so a re-call with the same arguments carries the same key.
 */
public final class Tools {
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final Fixture fixture;
  private final boolean keyed;

  Tools(Fixture fixture, boolean keyed) {
    this.fixture = fixture;
    this.keyed = keyed;
  }

  @Tool("Returns the cart's items and amount in cents")
  public String getCart(@P("the cart id") String cart) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(fixture.cart(cart)).timeout(Duration.ofSeconds(1)).GET().build();
    return body(CLIENT.send(request, HttpResponse.BodyHandlers.ofString()), "getCart(" + cart + ")");
  }

  @Tool("Charges the customer's cart with the given amount in cents")
  public String chargeCart(@P("the cart id") String cart, @P("the amount in cents") int amount)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(fixture.payments()).timeout(Duration.ofSeconds(1))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"cart\":\"" + cart + "\",\"amount\":" + amount + "}"));
    if (keyed) {
      request.header("Idempotency-Key", "charge-" + cart + "-" + amount);
    }
    return body(CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString()),
        "chargeCart(" + cart + ", " + amount + ")");
  }

  private static String body(HttpResponse<String> response, String call) throws IOException {
    System.out.println(call + " -> " + response.statusCode());
    if (response.statusCode() >= 400) {
      throw new IOException("payments service answered " + response.statusCode() + ": " + response.body().strip());
    }
    return response.body();
  }
}
