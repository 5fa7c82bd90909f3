package dev.retryaudit.junit;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.probe.ClientRun;
import dev.retryaudit.probe.ProbeRun;
import dev.retryaudit.probe.ProbeServer;
import dev.retryaudit.probe.suite.ScorecardRow;
import dev.retryaudit.probe.suite.SuiteRun;
import dev.retryaudit.probe.suite.SuiteScenario;
import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.report.Report;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Grades one scenario against the client a test drives in its own JVM: before the test, a probe server on
 * 127.0.0.1 serves {@code scenario} to requests of {@code method}; its URL (a {@code String} or {@link URI}) and
 * the scenario itself are injected into the test's parameters; the test method is the client, run for at most
 * {@code timeoutSeconds} (0: no limit) and ending as a client command would: it returned (exit 0), threw (exit 1)
 * or was still running at the limit (killed: interrupted). What the server saw is then graded as
 * {@code retry-audit probe --suite} grades the scenario's row, and the test fails with that row in one line
 * unless it is honoured; a row not tested is skipped instead when {@code allowNotTested}.
 */
record ScenarioProbe(SuiteScenario scenario, String method, String keyHeader, long timeoutSeconds,
        boolean allowNotTested) implements BeforeEachCallback, AfterEachCallback, ParameterResolver, InvocationInterceptor {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ScenarioProbe.class);
    private static final String SERVER = "server";

    /** The most requests journaled per scenario; the rest are counted. */
    private static final int MAX_RECORDED = 10_000;

    /** How long a test method interrupted at its limit is given to end. */
    private static final long GRACE_MILLIS = 2_000;

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        ProbeServer server = ProbeServer.start(scenario.scenario(method, keyHeader), context.getDisplayName(), 0,
                MAX_RECORDED);
        context.getStore(NAMESPACE).put(SERVER, server);
    }

    /** Stops the server of a test that never ran (its parameters could not be resolved, a callback failed). */
    @Override
    public void afterEach(ExtensionContext context) {
        ProbeServer server = context.getStore(NAMESPACE).remove(SERVER, ProbeServer.class);
        if (server != null) {
            server.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == String.class || type == URI.class || type == SuiteScenario.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == SuiteScenario.class) {
            return scenario;
        }
        ProbeServer server = context.getStore(NAMESPACE).get(SERVER, ProbeServer.class);
        if (server == null) {
            throw new ParameterResolutionException("no probe server for " + context.getDisplayName());
        }
        return type == URI.class ? URI.create(server.url()) : server.url();
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        grade(invocation, context);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        grade(invocation, context);
    }

    /** Runs the test method as the client, then grades what the server saw. */
    private void grade(Invocation<Void> invocation, ExtensionContext context) throws Throwable {
        ProbeServer server = context.getStore(NAMESPACE).remove(SERVER, ProbeServer.class);
        Ending ending;
        try {
            ending = timeoutSeconds > 0 ? limited(invocation, context.getDisplayName()) : inline(invocation);
        } finally {
            server.close();
        }
        ProbeRun run = new ProbeRun(server.url(), server.trace(), List.of(context.getDisplayName()), ending.client(),
                timeoutSeconds);
        Report report = run.audit(RetryAudit.defaults().settings(), "<" + context.getDisplayName() + ">", null);
        ScorecardRow row = SuiteRun.row(scenario, report);
        if (row.verdict().equals(ProbeFacts.HONOURED)) {
            boolean gaveUp = !report.probe().verdict().equals(ProbeFacts.HONOURED);
            if (ending.thrown() != null && !gaveUp) {
                throw ending.thrown(); // the client did right; the test failed on its own account
            }
            return;
        }
        String line = line(row);
        if (row.verdict().equals(ProbeFacts.NOT_TESTED) && allowNotTested) {
            throw new TestAbortedException(line, ending.thrown());
        }
        throw new AssertionFailedError(line, ending.thrown());
    }

    /**
     * A graded row in one line: {@code seconds-503: violated: retry-after/early: MESSAGE (server: WHAT IT SERVED;
     * client: WHAT IT DID)}.
     */
    static String line(ScorecardRow row) {
        return row.id() + ": " + row.verdict().replace('_', ' ') + ": " + (row.rule() == null ? "" : row.rule() + ": ")
                + row.finding() + " (server: " + row.server() + "; client: " + row.client() + ")";
    }

    /** How the test method ended: as a client command's result, and what it threw (null when it returned). */
    private record Ending(ClientRun.Result client, Throwable thrown) {
    }

    private static Ending inline(Invocation<Void> invocation) {
        try {
            invocation.proceed();
            return new Ending(new ClientRun.Result(0, false), null);
        } catch (Throwable t) {
            return new Ending(new ClientRun.Result(1, false), t);
        }
    }

    /** Runs the test method on a thread of its own, interrupting it past the limit as a killed client. */
    private Ending limited(Invocation<Void> invocation, String name) throws InterruptedException {
        AtomicReference<Ending> ended = new AtomicReference<>();
        Thread client = new Thread(() -> ended.set(inline(invocation)), "retry-probe " + name);
        client.setDaemon(true);
        client.start();
        client.join(timeoutSeconds * 1000);
        if (client.isAlive()) {
            client.interrupt();
            client.join(GRACE_MILLIS);
            return new Ending(new ClientRun.Result(null, true), null);
        }
        return ended.get();
    }
}
