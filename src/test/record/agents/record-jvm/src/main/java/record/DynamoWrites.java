package record;

import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB writes with the AWS SDK for Java v2 on its Apache HttpClient 5 transport, pointed at the
 * fixture with static fake credentials and the standard retry mode (three attempts).
 */
final class DynamoWrites {
  private DynamoWrites() {}

  /** A client; {@code attemptTimeout} null leaves the attempt timeout unset. */
  private static DynamoDbClient client(Fixture fixture, Duration attemptTimeout) {
    return DynamoDbClient.builder()
        .endpointOverride(fixture.dynamodb())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("AKIAFIXTURE000000000", "fixture-secret-key")))
        .httpClientBuilder(Apache5HttpClient.builder())
        .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD)
            .apiCallAttemptTimeout(attemptTimeout))
        .build();
  }

  /** An UpdateItem (ADD to a counter: not idempotent) whose first attempt outlives a 2 s attempt timeout (long enough for a cold JVM to send it). */
  static void updateAfterAttemptTimeout(Fixture fixture) {
    try (DynamoDbClient dynamo = client(fixture, Duration.ofSeconds(2))) {
      var response = dynamo.updateItem(b -> b.tableName("carts")
          .key(Map.of("cart", AttributeValue.fromS("c-1")))
          .updateExpression("ADD charged :amount")
          .expressionAttributeValues(Map.of(":amount", AttributeValue.fromN("1200"))));
      System.out.println("UpdateItem -> " + response.sdkHttpResponse().statusCode()
          + " after " + response.responseMetadata().requestId());
    }
  }

  /** A PutItem (the fixture's configuration says whether it throttles it first). */
  static void putItem(Fixture fixture) {
    try (DynamoDbClient dynamo = client(fixture, null)) {
      var response = dynamo.putItem(b -> b.tableName("orders")
          .item(Map.of("order", AttributeValue.fromS("o-1"), "cart", AttributeValue.fromS("c-1"),
              "amount", AttributeValue.fromN("1200"))));
      System.out.println("PutItem -> " + response.sdkHttpResponse().statusCode());
    }
  }
}
