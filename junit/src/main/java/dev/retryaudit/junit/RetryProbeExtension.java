package dev.retryaudit.junit;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.probe.HeaderFormat;
import dev.retryaudit.probe.ProbeRun;
import dev.retryaudit.probe.ProbeServer;
import dev.retryaudit.probe.Scenario;
import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.report.Report;
import java.net.URI;
import java.util.Arrays;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;

/**
 * The extension behind {@link RetryProbe}: starts the probe server before each test, injects its URL, and
 * after the test (when the test itself passed) judges what the server saw, failing the test unless the
 * verdict is honoured.
 */
public final class RetryProbeExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RetryProbeExtension.class);
    private static final String SERVER = "server";

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        RetryProbe probe = AnnotationSupport.findAnnotation(context.getElement(), RetryProbe.class)
                .or(() -> context.getTestClass().flatMap(c -> AnnotationSupport.findAnnotation(c, RetryProbe.class)))
                .orElseThrow(() -> new IllegalStateException("@RetryProbe is missing"));
        HeaderFormat format = HeaderFormat.parse(probe.headerFormat());
        if (format == null) {
            throw new IllegalArgumentException("@RetryProbe headerFormat: expected one of " + HeaderFormat.ids());
        }
        Scenario scenario = new Scenario(probe.method(), probe.status(), probe.failures(),
                Arrays.stream(probe.delays()).boxed().toList(), format, Math.max(32, probe.failures() + 1), 0, true,
                "Idempotency-Key");
        ProbeServer server = ProbeServer.start(scenario, context.getDisplayName(), 0, 10_000);
        context.getStore(NAMESPACE).put(SERVER, server);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        ProbeServer server = context.getStore(NAMESPACE).remove(SERVER, ProbeServer.class);
        if (server == null) {
            return;
        }
        server.close();
        if (context.getExecutionException().isPresent()) {
            return;
        }
        ProbeRun run = new ProbeRun(server.url(), server.trace(), java.util.List.of(), null, 0);
        Report report = run.audit(RetryAudit.defaults().settings(), "<" + context.getDisplayName() + ">", null);
        ProbeFacts facts = report.probe();
        if (!facts.verdict().equals(ProbeFacts.HONOURED)) {
            String finding = report.findings().isEmpty() ? "" : " [" + report.findings().get(0).rule() + ": "
                    + report.findings().get(0).message() + "]";
            throw new AssertionFailedError("retry probe: " + facts.verdict() + ": " + facts.reason() + finding);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == String.class || type == URI.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ProbeServer server = context.getStore(NAMESPACE).get(SERVER, ProbeServer.class);
        if (server == null) {
            throw new ParameterResolutionException("no probe server: is the test annotated @RetryProbe?");
        }
        return parameter.getParameter().getType() == URI.class ? URI.create(server.url()) : server.url();
    }
}
