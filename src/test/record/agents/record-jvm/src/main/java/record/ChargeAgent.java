package record;

import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import java.time.Duration;

/** A LangChain4j AI service whose model (the fixture's scripted one) calls the payment tools. */
final class ChargeAgent {
  interface Assistant {
    String chat(String userMessage);
  }

  private ChargeAgent() {}

  static void run(Fixture fixture, boolean keyed) {
    OpenAiChatModel model = OpenAiChatModel.builder()
        .baseUrl(fixture.openAiBaseUrl())
        .apiKey("sk-fixture")
        .modelName("gpt-4o-mini")
        .timeout(Duration.ofSeconds(10))
        .build();
    Assistant assistant = AiServices.builder(Assistant.class)
        .chatModel(model)
        .tools(new Tools(fixture, keyed))
        .build();
    System.out.println(assistant.chat("Please charge cart c-1 with 1200 cents."));
  }
}
