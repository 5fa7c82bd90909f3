package record;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;

/**
 * Agent-framework and cloud-SDK scenarios run under the OpenTelemetry Java agent against the
 * recording fixture, one scenario per JVM:
 * {@code java -javaagent:... -Drecord.base=http://127.0.0.1:PORT -cp ... record.Scenarios CASE}.
 * Each scenario runs inside one parent span named after it, so that the whole run is one trace.
 */
public final class Scenarios {
  private Scenarios() {}

  public static void main(String[] args) throws Exception {
    String scenario = args[0];
    Fixture fixture = new Fixture(System.getProperty("record.base", "http://127.0.0.1:8790"), scenario);
    Span span = GlobalOpenTelemetry.getTracer("record").spanBuilder(scenario).startSpan();
    try (Scope ignored = span.makeCurrent()) {
      run(scenario, fixture);
    } finally {
      span.end();
    }
  }

  private static void run(String scenario, Fixture fixture) throws Exception {
    switch (scenario) {
      case "langchain4j-charge-timeout-keyless" -> ChargeAgent.run(fixture, false);
      case "langchain4j-charge-timeout-keyed" -> ChargeAgent.run(fixture, true);
      case "langchain4j-charge-clean", "langchain4j-charge-503-recall", "langchain4j-model-429-retry-after",
          "langchain4j-cart-timeout-recall" -> ChargeAgent.run(fixture, false);
      case "aws-updateitem-attempt-timeout-http", "aws-updateitem-attempt-timeout-sdkspan" ->
          DynamoWrites.updateAfterAttemptTimeout(fixture);
      case "aws-putitem-throttled-http", "aws-putitem-throttled-sdkspan", "aws-putitem-clean-http" ->
          DynamoWrites.putItem(fixture);
      case "azure-post-reset-keyless", "azure-post-503-retry-after", "azure-post-429-retry-after-ms" ->
          AzurePosts.postCharge(fixture);
      default -> throw new IllegalArgumentException("unknown scenario " + scenario);
    }
  }
}
