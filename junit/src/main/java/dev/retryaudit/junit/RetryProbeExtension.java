package dev.retryaudit.junit;

import dev.retryaudit.probe.HeaderFormat;
import dev.retryaudit.probe.Scenario;
import dev.retryaudit.probe.suite.SuiteScenario;
import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link RetryProbe}: grades each {@code @Test} method as a {@link ScenarioProbe} of the
 * scenario the annotation (on the method, else on its class) describes, with no time limit. Test templates are
 * left to their own extensions ({@link RetryProbeSuite}).
 */
public final class RetryProbeExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver,
        InvocationInterceptor {
    /** The single scenario's id: how its failure line starts. */
    static final String ID = "retry probe";

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (graded(context)) {
            probe(context).beforeEach(context);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (graded(context)) {
            probe(context).afterEach(context);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return graded(context) && probe(context).supportsParameter(parameter, context);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return probe(context).resolveParameter(parameter, context);
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        probe(context).interceptTestMethod(invocation, call, context);
    }

    /** Whether the context is a {@code @Test} this extension grades, not a test template's call. */
    private static boolean graded(ExtensionContext context) {
        return context.getTestMethod().isPresent()
                && !context.getTestMethod().flatMap(m -> AnnotationSupport.findAnnotation(m, RetryProbeSuite.class))
                        .isPresent();
    }

    /** The probe the annotation describes, named {@value #ID}. */
    private static ScenarioProbe probe(ExtensionContext context) {
        RetryProbe probe = AnnotationSupport.findAnnotation(context.getElement(), RetryProbe.class)
                .or(() -> context.getTestClass().flatMap(c -> AnnotationSupport.findAnnotation(c, RetryProbe.class)))
                .orElseThrow(() -> new ExtensionConfigurationException("@RetryProbe is missing"));
        HeaderFormat format = HeaderFormat.parse(probe.headerFormat());
        if (format == null) {
            throw new ExtensionConfigurationException("@RetryProbe headerFormat: expected one of " + HeaderFormat.ids());
        }
        if (!Scenario.isToken(probe.method())) {
            throw new ExtensionConfigurationException("@RetryProbe method: must be an HTTP token");
        }
        SuiteScenario.Served served = new SuiteScenario.Served(probe.status(), probe.failures(),
                Arrays.stream(probe.delays()).boxed().toList(), format, 0, true);
        SuiteScenario scenario = new SuiteScenario(ID, "the scenario of @RetryProbe", "the test's own scenario",
                "none", served, 0, false);
        return new ScenarioProbe(scenario, probe.method(), "Idempotency-Key", 0, false);
    }
}
