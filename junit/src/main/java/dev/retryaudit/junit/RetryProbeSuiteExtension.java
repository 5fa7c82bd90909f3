package dev.retryaudit.junit;

import dev.retryaudit.probe.Scenario;
import dev.retryaudit.probe.suite.Suite;
import dev.retryaudit.probe.suite.SuiteScenario;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link RetryProbeSuite}: one invocation of the test template per chosen scenario of the
 * suite, in the suite's order, each graded by a {@link ScenarioProbe} of its own. A suite or scenario id that
 * does not exist, or a method that is not an HTTP token, is a configuration error naming what there is.
 */
public final class RetryProbeSuiteExtension implements TestTemplateInvocationContextProvider {
    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().flatMap(m -> AnnotationSupport.findAnnotation(m, RetryProbeSuite.class))
                .isPresent();
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        RetryProbeSuite probe = context.getTestMethod()
                .flatMap(m -> AnnotationSupport.findAnnotation(m, RetryProbeSuite.class)).orElseThrow();
        Suite suite = Suite.builtIn(probe.value());
        if (suite == null) {
            throw new ExtensionConfigurationException("@RetryProbeSuite: no suite \"" + probe.value()
                    + "\"; the suites are " + String.join(", ", Suite.NAMES));
        }
        String method = probe.method().isEmpty() ? suite.method() : probe.method();
        if (!Scenario.isToken(method) || !Scenario.isToken(probe.keyHeader())) {
            throw new ExtensionConfigurationException("@RetryProbeSuite: method and keyHeader must be HTTP tokens");
        }
        List<SuiteScenario> chosen = chosen(suite, probe.scenarios());
        return chosen.stream().map(s -> invocation(new ScenarioProbe(s, method, probe.keyHeader(),
                probe.timeoutSeconds() > 0 ? probe.timeoutSeconds() : s.timeoutSeconds(), probe.allowNotTested())));
    }

    /** The scenarios of {@code suite} whose ids are {@code ids} (all when there are none), in the suite's order. */
    private static List<SuiteScenario> chosen(Suite suite, String[] ids) {
        Set<String> known = suite.scenarios().stream().map(SuiteScenario::id).collect(Collectors.toSet());
        List<String> unknown = Arrays.stream(ids).filter(id -> !known.contains(id)).toList();
        if (!unknown.isEmpty()) {
            throw new ExtensionConfigurationException("@RetryProbeSuite: suite " + suite.name() + " has no scenario "
                    + String.join(", ", unknown) + "; its scenarios are "
                    + suite.scenarios().stream().map(SuiteScenario::id).collect(Collectors.joining(", ")));
        }
        Set<String> wanted = Arrays.stream(ids).collect(Collectors.toSet());
        return suite.scenarios().stream().filter(s -> wanted.isEmpty() || wanted.contains(s.id())).toList();
    }

    private static TestTemplateInvocationContext invocation(ScenarioProbe probe) {
        return new TestTemplateInvocationContext() {
            @Override
            public String getDisplayName(int invocationIndex) {
                return probe.scenario().id() + ": " + probe.scenario().title();
            }

            @Override
            public List<Extension> getAdditionalExtensions() {
                return List.of(probe);
            }
        };
    }
}
