package record;

import java.net.URI;

/** The recording fixture's endpoints of one scenario: every path starts with /s/SCENARIO/. */
record Fixture(String base, String scenario) {
  String prefix() {
    return base + "/s/" + scenario;
  }

  /** The OpenAI-compatible base URL of the scripted model. */
  String openAiBaseUrl() {
    return prefix() + "/v1";
  }

  URI payments() {
    return URI.create(prefix() + "/pay/charge");
  }

  URI cart(String id) {
    return URI.create(prefix() + "/pay/cart/" + id);
  }

  URI dynamodb() {
    return URI.create(prefix() + "/dynamodb");
  }

  String azure(String resource) {
    return prefix() + "/azure/" + resource;
  }
}
